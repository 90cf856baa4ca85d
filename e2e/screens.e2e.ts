import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// Every screen in both languages at the widths people use (a small and a common phone, a tablet, a
// laptop, a desktop): the page never scrolls sideways, and no text shows as its raw translation key.
// The desktop and phone views are saved as the gallery (test-results/gallery, README "Gallery").

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gallery = path.join(root, 'test-results/gallery');

const WIDTHS = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1366, height: 800 },
  { width: 1920, height: 1080 },
];
const GALLERY_WIDTHS = new Set([390, 1366]);

// The screens of an admin of the platform's company (every plan feature on), by name for the gallery.
const SCREENS: [name: string, path: string][] = [
  ['dashboard', '/'],
  ['inbox', '/tickets'],
  ['conversation', '/tickets/{ticket}'],
  ['connections', '/connections'],
  ['quick-messages', '/quick-messages'],
  ['todo', '/todolist'],
  ['schedules', '/schedules'],
  ['tags', '/tags'],
  ['contacts', '/contacts'],
  ['helps', '/helps'],
  ['users', '/users'],
  ['files', '/files'],
  ['ai-agents', '/prompts'],
  ['integrations', '/queue-integration'],
  ['messages-api', '/messages-api'],
  ['settings', '/settings'],
  ['kanban', '/kanban'],
  ['queues', '/queues'],
  ['announcements', '/announcements'],
  ['subscriptions', '/subscriptions'],
  ['contact-lists', '/contact-lists'],
  ['campaigns', '/campaigns'],
  ['campaign-settings', '/campaigns-config'],
];

// Every translation key of the web app (the shell's files and each feature's), flattened.
const translationKeys = () => {
  const web = path.join(root, 'apps/web/src');
  const files = readdirSync(web, { recursive: true, encoding: 'utf8' }).filter((file) =>
    /(^|\/)i18n\/[^/]*\.json$/.test(file),
  );
  type Tree = { [key: string]: string | Tree };
  const keysOf = (tree: Tree, prefix = ''): string[] =>
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [`${prefix}${key}`.replace(/_(zero|one|two|few|many|other)$/, '')]
        : keysOf(value, `${prefix}${key}.`),
    );
  return new Set(
    files.flatMap((file) => keysOf(JSON.parse(readFileSync(path.join(web, file), 'utf8')) as Tree)),
  );
};

let server: RunningServer;
let browser: Browser;
let ticketUuid = '';
const keys = translationKeys();

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  mkdirSync(gallery, { recursive: true });
  // Something to show: a connected simulator and a conversation a contact opened.
  const client = apiClient(server.apiUrl);
  const token = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const connection = await client.call<{ id: number }>(token, 'POST', '/whatsapp', {
    name: 'Ventas',
    provider: 'simulator',
  });
  await pairSimulator(client, token, connection.id);
  await client.call(token, 'POST', `/simulator/${connection.id}/inbound`, {
    from: '5491155550101',
    body: 'Hola, ¿a qué hora abren mañana?',
  });
  ticketUuid = await eventually(
    () =>
      client
        .call<{ tickets: { uuid: string }[] }>(token, 'GET', '/tickets?status=pending&showAll=true')
        .then((list) => list.tickets[0]?.uuid ?? ''),
    Boolean,
    'the contact’s conversation',
    POLL,
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// What is wrong with the page as shown: it scrolls sideways, on a phone a part of it does (a table
// whose actions are off-screen), or it shows a raw translation key.
const problemsOf = async (page: Page) => {
  const { overflow, text, sideways } = await page.evaluate(() => ({
    overflow: document.scrollingElement!.scrollWidth - window.innerWidth,
    text: document.body.innerText,
    sideways:
      window.innerWidth < 600
        ? Array.from(document.querySelectorAll('main *'))
            // Code keeps its lines (it scrolls in its box), and a row of tabs scrolls as tabs do.
            .filter((element) => element.tagName !== 'PRE' && !element.closest('[role="tablist"]'))
            .filter((element) => element.querySelector('[role="tablist"]') === null)
            .filter((element) => {
              const { overflowX } = getComputedStyle(element);
              return (
                (overflowX === 'auto' || overflowX === 'scroll') &&
                element.scrollWidth > element.clientWidth + 1
              );
            })
            .map((element) => element.getAttribute('aria-label') ?? element.className.split(' ')[0])
        : [],
  }));
  const rawKeys = [...new Set(text.match(/\b[a-zA-Z][\w-]*(\.[\w-]+)+\b/g) ?? [])].filter((word) =>
    keys.has(word),
  );
  return [
    ...(overflow > 1 ? [`scrolls ${overflow} px sideways`] : []),
    ...sideways.map((part) => `${part} scrolls sideways`),
    ...rawKeys.map((key) => `shows the key ${key}`),
  ];
};

// The screen has drawn what it waits for: its data loaded, no spinner left (a bar that shows a
// figure, like the storage used, is not a spinner). Whatever still spins after 10 s is a problem.
const settled = async (page: Page) => {
  await page.locator('main').first().waitFor();
  return page
    .waitForFunction(
      () => !document.querySelector('main [role="progressbar"]:not([aria-valuenow])'),
      null,
      { timeout: 10_000 },
    )
    .then(
      () => [],
      () => ['still loading after 10 s'],
    );
};

describe.each(['es', 'en'] as const)('every screen in %s', (language) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext();
    await context.addInitScript((lang) => window.localStorage.setItem('language', lang), language);
    page = await context.newPage();
    await logIn(page, server.webUrl);
  });
  afterAll(() => context?.close());

  it.each(WIDTHS)('fits $width px wide and shows no raw key', async ({ width, height }) => {
    await page.setViewportSize({ width, height });
    const problems: string[] = [];
    for (const [name, route] of SCREENS) {
      await page.goto(`${server.webUrl}${route.replace('{ticket}', ticketUuid)}`);
      const loading = await settled(page);
      problems.push(
        ...[...loading, ...(await problemsOf(page))].map((problem) => `${route}: ${problem}`),
      );
      if (GALLERY_WIDTHS.has(width))
        await page.screenshot({
          path: path.join(gallery, `${name}-${width < 600 ? 'phone' : 'desktop'}-${language}.png`),
        });
    }
    expect(problems).toEqual([]);
  });
});
