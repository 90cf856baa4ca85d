import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SharedTestContext } from '../../test/harness';
import { buildWebServer } from '../web-server';

// The CSP header as { directive: [sources] }.
const cspOf = (headers: Record<string, unknown>) =>
  Object.fromEntries(
    String(headers['content-security-policy'] ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );

const expectBrowserBasics = (headers: Record<string, unknown>) => {
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(cspOf(headers)['frame-ancestors']).toEqual(["'none'"]);
  expect(headers['cross-origin-embedder-policy']).toBeUndefined();
};

describe('API security headers', () => {
  let context: SharedTestContext;
  beforeAll(async () => {
    context = await sharedTestApp();
  });

  it('answers JSON, errors included, under a policy that loads nothing', async () => {
    for (const url of ['/version', '/tickets']) {
      const res = await context.app.inject({ method: 'GET', url });
      expectBrowserBasics(res.headers);
      expect(cspOf(res.headers)['default-src']).toEqual(["'none'"]);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it("lets the web app's <img> on another origin show an upload, which is shown alone in a tab too", async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const { uploads } = context.app.deps;
    const stored = await uploads.store(1, png, { mimetype: 'image/png' });
    const url = new URL(uploads.urlFor(1, stored.storedName)!);
    const res = await context.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(res.statusCode).toBe(200);
    // helmet's default (same-origin) would make the browser drop it from a page on :3000.
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expectBrowserBasics(res.headers);
    const csp = cspOf(res.headers);
    expect(csp['img-src']).toEqual(["'self'"]);
    expect(csp['script-src']).toBeUndefined();
    expect(csp['default-src']).toEqual(["'none'"]);
  });

  it('serves the docs page and its files under a policy that lets Swagger UI run', async () => {
    const page = await context.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    const csp = cspOf(page.headers);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    // Every script the page names is a file under the policy's 'self' (no inline code).
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const bundle = await context.app.inject({
      method: 'GET',
      url: '/docs/static/swagger-ui-bundle.js',
    });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
  });
});

describe('web server security headers', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'atendi-web-'));
  let web: Awaited<ReturnType<typeof buildWebServer>>;
  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'index.js'), 'console.log(1)');
    web = await buildWebServer({ dist, apiUrl: 'https://api.example.com' });
  });
  afterAll(async () => {
    await web.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the app, its files and its runtime config under the policy it runs under', async () => {
    for (const url of ['/', '/tickets/12', '/assets/index.js', '/runtime-config.js']) {
      const res = await web.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expectBrowserBasics(res.headers);
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      const csp = cspOf(res.headers);
      // Scripts only from the app's own origin: an injected inline <script> never runs.
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp['img-src']).toEqual(expect.arrayContaining(['https://api.example.com', 'blob:']));
      expect(csp['media-src']).toEqual(
        expect.arrayContaining(['https://api.example.com', 'blob:']),
      );
      expect(csp['connect-src']).toEqual([
        "'self'",
        'https://api.example.com',
        'wss://api.example.com',
      ]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['upgrade-insecure-requests']).toBeUndefined();
    }
  });
});
