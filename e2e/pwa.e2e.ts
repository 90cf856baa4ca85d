import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '../apps/api/test/eventually';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { startServer, type RunningServer } from './support/server';

// The built web app, copied: the update flow deploys a new version by rewriting the copy's sw.js.
const builtWeb = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const webDist = mkdtempSync(path.join(tmpdir(), 'atendi-pwa-web-'));
cpSync(builtWeb, webDist, { recursive: true });

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ WEB_DIST: webDist });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(webDist, { recursive: true, force: true });
});

// A PNG's size, from its IHDR chunk.
const pngSize = (bytes: Buffer) => `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;

// Signed in, with the service worker in charge of the page (from the reload on: the first page
// load ran before it was installed, though it claims that page too).
const installedApp = async (context: BrowserContext) => {
  const page = await context.newPage();
  await logIn(page, server.webUrl);
  const state = await page.evaluate(
    async () => (await navigator.serviceWorker.ready).active?.state,
  );
  expect(state).toBe('activated');
  await page.reload();
  await page.getByRole('heading', { name: 'Tickets' }).waitFor();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
    `${server.webUrl}/sw.js`,
  );
  return page;
};

const offlinePageShown = async (page: Page) => {
  await page.getByRole('heading', { name: 'Sin conexión con Atendi' }).waitFor();
  await page.getByRole('heading', { name: "Can't connect to Atendi" }).waitFor();
};

describe('installable app', () => {
  it('links a valid manifest: name, start URL, standalone, colours and icons of the sizes it names', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.webUrl}/login`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifestUrl = new URL(href!, server.webUrl).toString();
    const res = await fetch(manifestUrl);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as Record<string, unknown> & {
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Atendi',
      short_name: 'Atendi',
      start_url: '/tickets',
      scope: '/',
      display: 'standalone',
      theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      background_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      description: expect.stringContaining('WhatsApp'),
    });
    for (const icon of manifest.icons) {
      const file = await fetch(new URL(icon.src, manifestUrl));
      expect(file.status, icon.src).toBe(200);
      expect(file.headers.get('content-type'), icon.src).toBe(icon.type);
      expect(pngSize(Buffer.from(await file.arrayBuffer())), icon.src).toBe(icon.sizes);
    }
    const offered = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
    expect(offered).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );

    // Chromium reads it as the app's manifest, without an error, and finds nothing against
    // installing it.
    const cdp = await page.context().newCDPSession(page);
    const read = await cdp.send('Page.getAppManifest');
    expect(read.url).toBe(manifestUrl);
    expect(read.errors).toEqual([]);
    // (Playwright's contexts are incognito-like profiles, where nothing can be installed.)
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors.filter(({ errorId }) => errorId !== 'in-incognito')).toEqual([]);

    // The browser's bar follows the light or dark scheme.
    const themes = await page
      .locator('meta[name="theme-color"]')
      .evaluateAll((metas) => metas.map((meta) => meta.getAttribute('media')));
    expect(themes).toEqual(['(prefers-color-scheme: light)', '(prefers-color-scheme: dark)']);
    await page.close();
  });

  it('starts offline from its cache, which shows the offline page while the API cannot be reached, and retries', async () => {
    const context = await browser.newContext();
    const page = await installedApp(context);

    await context.setOffline(true);
    const reloaded = await page.reload();
    // The page and the app's code came from the service worker's cache (the app ran: it is what
    // found the API unreachable and opened the offline page)…
    expect(reloaded?.status()).toBe(200);
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await page.waitForURL(`${server.webUrl}/offline.html?from=%2Ftickets`);
    await offlinePageShown(page);

    // …which retries into the same page, still offline while the network is.
    await page.getByRole('button', { name: 'Reintentar · Retry' }).click();
    await page.waitForURL(`${server.webUrl}/offline.html?from=%2Ftickets`);
    await offlinePageShown(page);

    await context.setOffline(false);
    await page.getByRole('button', { name: 'Reintentar · Retry' }).click();
    await page.waitForURL(`${server.webUrl}/tickets`);
    // Still signed in: the session was never given up.
    await page.getByRole('heading', { name: 'Tickets' }).waitFor();

    // A page the worker has nothing for (its cached shell gone) is the offline page in its place.
    await page.evaluate(async () => {
      for (const name of await caches.keys()) await (await caches.open(name)).delete('/index.html');
    });
    await context.setOffline(true);
    await page.goto(`${server.webUrl}/contacts`);
    await offlinePageShown(page);
    expect(page.url()).toBe(`${server.webUrl}/contacts`);
    await context.close();
  });

  it('shows the offline page when the site answers but the API does not', async () => {
    const context = await browser.newContext();
    await context.route(`${server.apiUrl}/**`, (route) => route.abort('connectionrefused'));
    const page = await context.newPage();
    await page.goto(`${server.webUrl}/contacts`);
    await page.waitForURL(`${server.webUrl}/offline.html?from=%2Fcontacts`);
    await offlinePageShown(page);

    // Back up: the retry opens the page asked for (the login page first, in this new browser).
    await context.unroute(`${server.apiUrl}/**`);
    await page.getByRole('button', { name: 'Reintentar · Retry' }).click();
    await page.waitForURL(`${server.webUrl}/login`);
    await context.close();
  });

  it('offers a new deployment, and Actualizar reloads the app into it with its own cache', async () => {
    const context = await browser.newContext();
    const page = await installedApp(context);
    const caches = () => page.evaluate(() => globalThis.caches.keys());
    const [before] = await caches();
    expect(before).toMatch(/^atendi-/);
    // The shell is precached; a lazy chunk (the contacts page's: the inbox is in the first load) is
    // kept once loaded.
    const worker = path.join(webDist, 'sw.js');
    const precached = JSON.parse(
      /const PRECACHE = (\[[^\]]*\]);/.exec(readFileSync(worker, 'utf8'))![1],
    ) as string[];
    const kept = (name: string) =>
      page.evaluate(async (name) => {
        const cache = await globalThis.caches.open(name);
        return (await cache.keys()).map((request) => new URL(request.url).pathname);
      }, name);
    expect(await kept(before)).toEqual(
      expect.arrayContaining([...precached, '/runtime-config.js']),
    );
    const lazyChunks = async () =>
      (await kept(before)).filter(
        (file) => file.startsWith('/assets/') && !precached.includes(file),
      );
    expect(await lazyChunks()).toEqual([]);
    await page.getByTestId('drawer').getByText('Contactos', { exact: true }).click();
    await page.waitForURL('**/contacts');
    await eventually(lazyChunks, (files) => files.length > 0, "the contacts page's chunk, cached");

    // A deployment: the server has a new worker (another build's version).
    writeFileSync(
      worker,
      readFileSync(worker, 'utf8').replace(
        /^const VERSION = "(\w+)";/,
        'const VERSION = "$1next";',
      ),
    );
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await page.getByText('Hay una nueva versión').waitFor();
    // The new version waits for the agent: the page is still the old one's.
    expect(await caches()).toContain(before);

    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Actualizar' }).click();
    await reloaded;
    await page.getByTestId('drawer').waitFor();
    expect(page.url()).toBe(`${server.webUrl}/contacts`);
    expect(await caches()).toEqual([`${before}next`]);
    await context.close();
  });
});
