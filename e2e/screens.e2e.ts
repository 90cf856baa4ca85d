import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { keepView as keepGalleryView } from './support/gallery';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// Every screen in each language at the widths people use (a small and a common phone, a tablet, a
// laptop, a desktop): the page never scrolls sideways, and no text shows as its raw translation key.
// The desktop and phone views are saved as the gallery (test-results/gallery, README "Gallery").

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// `npm run gallery` also keeps these screens' Spanish views in docs/gallery, for the README.
const README_GALLERY = new Set([
  'dashboard',
  'inbox',
  'conversation-contact',
  'connections',
  'contacts',
  'kanban',
  'campaigns',
  'queues',
]);

// A view for the gallery: test-results/gallery (PNG), and, for the README's screens in Spanish,
// docs/gallery (JPEG) when GALLERY_DIR is set.
const keepView = (page: Page, name: string, width: number, language: string) => {
  const view = `${name}-${width < 600 ? 'phone' : 'desktop'}`;
  return keepGalleryView(
    page,
    `${view}-${language}`,
    language === 'es' && README_GALLERY.has(name) ? view : undefined,
  );
};

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
// A conversation the admin serves: its header has every action.
let servedUuid = '';
const keys = translationKeys();

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
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
  await client.call(token, 'POST', `/simulator/${connection.id}/inbound`, {
    from: '5491155550102',
    name: 'María Fernanda Gutiérrez de la Fuente',
    body: 'Buenas tardes, quiero cambiar la dirección de entrega de mi pedido',
  });
  const served = await eventually(
    () =>
      client
        .call<{ tickets: { id: number; uuid: string; contact: { number: string } }[] }>(
          token,
          'GET',
          '/tickets?status=pending&showAll=true',
        )
        .then((list) => list.tickets.find((ticket) => ticket.contact.number === '5491155550102')),
    Boolean,
    'the second conversation',
    POLL,
  );
  const me = await client.call<{ id: number }>(token, 'GET', '/auth/me');
  await client.call(token, 'PUT', `/tickets/${served!.id}`, { status: 'open', userId: me.id });
  servedUuid = served!.uuid;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// What is wrong with the page as shown: it scrolls sideways, on a phone a part of it does (a table
// whose actions are off-screen), it shows a raw translation key, or a field the browser draws in its
// own language (a native date, time or file input).
const problemsOf = async (page: Page) => {
  const { overflow, text, sideways, native, cut, placeholders } = await page.evaluate(() => ({
    overflow: document.scrollingElement!.scrollWidth - window.innerWidth,
    // Fields the browser draws in its own language ("mm/dd/yyyy", "Choose File"), not the app's.
    native: Array.from(
      document.querySelectorAll<HTMLInputElement>(
        'input[type="date"], input[type="datetime-local"], input[type="time"], input[type="file"]',
      ),
    )
      .filter((input) => input.type !== 'file' || input.getClientRects().length > 0)
      .map((input) => `a native ${input.type} field`),
    // A label of the side menu cut off without "…" (the campaigns group's long items were).
    cut: Array.from(document.querySelectorAll<HTMLElement>('nav li *, nav a *'))
      .filter((element) =>
        Array.from(element.childNodes).some(
          (node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim(),
        ),
      )
      .filter((element) => {
        let shown: HTMLElement | null = element;
        while (shown && getComputedStyle(shown).opacity !== '0') shown = shown.parentElement;
        return (
          shown === null &&
          element.scrollWidth > element.clientWidth + 1 &&
          getComputedStyle(element).textOverflow !== 'ellipsis'
        );
      })
      .map((element) => `the menu's "${element.textContent}" is cut off`),
    // A field's placeholder (a search box's hint) longer than the field shows.
    placeholders: Array.from(
      document.querySelectorAll<HTMLInputElement>('main input[placeholder]:placeholder-shown'),
    )
      .filter((input) => input.getClientRects().length > 0)
      .filter((input) => {
        const style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room =
          input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return context.measureText(input.placeholder).width > room + 1;
      })
      .map((input) => `the hint "${input.placeholder}" does not fit its field`),
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
    ...native,
    ...cut,
    ...placeholders,
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

// Shows a screen at the page's width: the first one loaded afresh, the next ones as a link in the app
// leads there (the app stays loaded, the screen mounts anew at this width), which spares a load of the
// app per screen. A path of the page already shown (the inbox, then a conversation) would keep that
// page mounted: it is loaded afresh too.
const show = async (page: Page, shown: string, path: string) => {
  const pageOf = (of: string) => of.split('/')[1];
  if (!shown || pageOf(shown) === pageOf(path)) {
    await page.goto(`${server.webUrl}${path}`);
    return;
  }
  await page.evaluate((to) => {
    for (const element of Array.from(document.querySelectorAll('main > *')))
      element.setAttribute('data-left', '');
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  // The router swaps the screen once the new one (or its spinner) can show: an element of main that
  // was not there before.
  await page.waitForFunction(() => document.querySelector('main > :not([data-left])') !== null);
};

// What is wrong with the chat as laid out: its header's parts (the contact's name, each button)
// overlap or leave the header, the name is cut to a few letters, the composer's text box is squeezed,
// or the contact drawer is not fully on screen.
const chatProblemsOf = (page: Page) =>
  page.evaluate(() => {
    const problems: string[] = [];
    const header = document.querySelector('main header');
    const name = header?.querySelector('h2');
    if (!header || !name) return ['no chat header'];
    const box = header.getBoundingClientRect();
    const parts = [name, ...Array.from(header.querySelectorAll('button'))].map((element) => ({
      label: element.getAttribute('aria-label') ?? element.textContent ?? '',
      rect: element.getBoundingClientRect(),
    }));
    for (const [index, { label, rect }] of parts.entries()) {
      if (rect.left < box.left - 1 || rect.right > box.right + 1)
        problems.push(`${label} leaves the header`);
      for (const other of parts.slice(index + 1)) {
        const overlaps =
          Math.min(rect.right, other.rect.right) - Math.max(rect.left, other.rect.left) > 1 &&
          Math.min(rect.bottom, other.rect.bottom) - Math.max(rect.top, other.rect.top) > 1;
        if (overlaps) problems.push(`${label} overlaps ${other.label}`);
      }
    }
    const nameWidth = name.getBoundingClientRect().width;
    if (nameWidth < Math.min(100, name.scrollWidth))
      problems.push(`the name is ${nameWidth} px wide`);
    const input = document.querySelector('main textarea[aria-label]');
    const inputWidth = input?.getBoundingClientRect().width ?? 0;
    if (inputWidth < Math.min(200, box.width * 0.45))
      problems.push(`the composer is ${Math.round(inputWidth)} px wide`);
    const drawer = document
      .querySelector('[data-testid="contact-drawer-number"]')
      ?.closest('aside, .MuiDrawer-paper');
    const drawerBox = drawer?.getBoundingClientRect();
    if (!drawerBox || drawerBox.width === 0) problems.push('the contact drawer is not shown');
    else if (drawerBox.left < -1 || drawerBox.right > window.innerWidth + 1)
      problems.push('the contact drawer is off screen');
    else {
      // Its close button can be pressed: nothing (the app bar) lies over it.
      const close = drawer!.querySelector('button');
      const rect = close?.getBoundingClientRect();
      const top =
        rect && document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
      if (!close || !top || !close.contains(top))
        problems.push('the drawer’s close button is covered');
    }
    return problems;
  });

// Add dialogs with long forms (page, its add button), opened on a laptop (1366×800).
const ADD_DIALOGS: [path: string, button: string][] = [
  ['/connections', 'Agregar WhatsApp'],
  ['/queues', 'Agregar cola'],
  ['/prompts', 'Agregar agente'],
  ['/campaigns', 'Nueva campaña'],
];

// What is wrong with the open dialog: a footer button outside the window (cut off), a field's
// floating label above the content's top edge (drawn across the title's border, or clipped), or a
// height that changes from tab to tab.
const dialogProblemsOf = async (page: Page) => {
  const problems = await page.evaluate(() => {
    const dialog = document.querySelector('[role="dialog"]')!;
    const found: string[] = [];
    for (const button of Array.from(dialog.querySelectorAll('.MuiDialogActions-root button'))) {
      const rect = button.getBoundingClientRect();
      if (rect.top < 0 || rect.bottom > window.innerHeight)
        found.push(`the button "${button.textContent}" is outside the window`);
    }
    const content = dialog.querySelector('.MuiDialogContent-root')!.getBoundingClientRect();
    for (const label of Array.from(dialog.querySelectorAll('.MuiDialogContent-root label'))) {
      if (label.getBoundingClientRect().top < content.top - 1)
        found.push(`the label "${label.textContent}" crosses the content's top edge`);
    }
    return found;
  });
  const dialog = page.getByRole('dialog');
  const heights = new Set<number>();
  for (const tab of await dialog.getByRole('tab', { disabled: false }).all()) {
    await tab.click();
    heights.add(Math.round((await dialog.boundingBox())!.height));
  }
  if (heights.size > 1) problems.push(`its height changes with the tab: ${[...heights]} px`);
  return problems;
};

// What the chat's checks look for, in each language.
const CHAT_TEXTS = {
  es: {
    more: 'Más acciones',
    contact: 'Datos del contacto',
    actions: [
      'Devolver',
      'Transferir',
      'Programar mensaje',
      'Resumir conversación',
      'Descargar transcripción (PDF)',
      'Descargar transcripción (JSON)',
      'Eliminar ticket',
    ],
  },
  en: {
    more: 'More actions',
    contact: 'Contact details',
    actions: [
      'Return',
      'Transfer',
      'Schedule message',
      'Summarise conversation',
      'Download transcript (PDF)',
      'Download transcript (JSON)',
      'Delete ticket',
    ],
  },
  'pt-BR': {
    more: 'Mais ações',
    contact: 'Dados do contato',
    actions: [
      'Devolver',
      'Transferir',
      'Agendar mensagem',
      'Resumir conversa',
      'Baixar transcrição (PDF)',
      'Baixar transcrição (JSON)',
      'Excluir ticket',
    ],
  },
} as const;

describe.each(Object.keys(CHAT_TEXTS) as (keyof typeof CHAT_TEXTS)[])(
  'every screen in %s',
  (language) => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      context = await browser.newContext();
      await context.addInitScript(
        (lang) => window.localStorage.setItem('language', lang),
        language,
      );
      page = await context.newPage();
      await logIn(page, server.webUrl);
    });
    afterAll(() => context?.close());

    it.each(WIDTHS)('fits $width px wide and shows no raw key', async ({ width, height }) => {
      await page.setViewportSize({ width, height });
      const problems: string[] = [];
      let shown = '';
      for (const [name, route] of SCREENS) {
        const path = route.replace('{ticket}', ticketUuid);
        await show(page, shown, path);
        shown = path;
        const loading = await settled(page);
        problems.push(
          ...[...loading, ...(await problemsOf(page))].map((problem) => `${route}: ${problem}`),
        );
        if (GALLERY_WIDTHS.has(width)) await keepView(page, name, width, language);
      }
      expect(problems).toEqual([]);
    });

    // Once, in Spanish: what it checks does not depend on the language.
    if (language === 'es')
      it('shows the whole footer of each add dialog on a laptop, one height across its tabs', async () => {
        await page.setViewportSize({ width: 1366, height: 800 });
        const problems: string[] = [];
        for (const [route, button] of ADD_DIALOGS) {
          await page.goto(`${server.webUrl}${route}`);
          await settled(page);
          await page.locator('main').getByRole('button', { name: button, exact: true }).click();
          // After the opening transition, as a person sees it.
          await page.waitForFunction(
            () => getComputedStyle(document.querySelector('.MuiDialog-container')!).opacity === '1',
          );
          problems.push(...(await dialogProblemsOf(page)).map((problem) => `${route}: ${problem}`));
        }
        expect(problems).toEqual([]);
      });

    // The chat stays usable with the contact drawer open: beside the chat where it has room, over it
    // where it has not.
    it.each(WIDTHS)('keeps the chat usable with the contact drawer at $width px', async (size) => {
      await page.setViewportSize(size);
      await page.goto(`${server.webUrl}/tickets/${servedUuid}`);
      await page.locator('main textarea[aria-label]').waitFor();
      const before = await chatProblemsOf(page);
      // On a phone the actions that do not fit are under "more", not gone.
      if (size.width < 600) {
        await page.getByRole('button', { name: CHAT_TEXTS[language].more }).click();
        const items = await page.getByRole('menuitem').allTextContents();
        expect(items).toEqual(CHAT_TEXTS[language].actions);
        await page.keyboard.press('Escape');
        await page.getByRole('menu').waitFor({ state: 'detached' });
      }
      const drawerButton = page.locator('main header').getByRole('button', {
        name: CHAT_TEXTS[language].contact,
      });
      await drawerButton.click();
      await page.getByTestId('contact-drawer-number').waitFor();
      const after = await chatProblemsOf(page);
      if (GALLERY_WIDTHS.has(size.width))
        await keepView(page, 'conversation-contact', size.width, language);
      expect({
        closed: before.filter((problem) => problem !== 'the contact drawer is not shown'),
        open: [...after, ...(await problemsOf(page))],
      }).toEqual({ closed: [], open: [] });
    });
  },
);
