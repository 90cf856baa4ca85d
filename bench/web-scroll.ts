import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { format, resolveConfig } from 'prettier';
import type { AuthSession, ChatMessageView, TicketView } from '@atendi/shared';
import { eventually } from '../apps/api/test/eventually';
import { args, resultsDir, root, summarize } from './lib';

// Scrolling the inbox in a browser: `npx tsx bench/web-scroll.ts [--dist DIR]` after a web build
// (building is the caller's job; this serves apps/web/dist, or DIR). A tiny local server serves the
// build and answers the API calls the inbox makes with made-up data: 10,000 tickets paged like
// GET /tickets (40 a page, hasMore) and a ticket with 10,000 messages paged like GET /messages/:id.
// Chromium (/usr/bin/chromium, through playwright-core) opens /tickets and scrolls the open list to
// its last ticket at a steady speed, the next pages loading on the way; then opens the chat of the
// first ticket, scrolls up to its top, waiting at the top for each older page (the chat asks 500 ms
// after scrolling stops there), until every message is loaded, and scrolls back down to the newest.
// The page records each frame's time (requestAnimationFrame deltas) while scrolling, the document's
// element count and the JS heap. The socket.io connection is refused (404): nothing live happens.
//
// Options: --dist DIR, --tickets N (10000), --messages N (10000), --message-page-size N (200: the
// API pages 20, and each page needs the chat's 500 ms pause at the top; 200 a page keeps the run to
// minutes; the client takes any size), --speed PX_PER_S (6000), --max-seconds S (300, per phase: an
// unvirtualised build slows down as rows pile up), --out NAME (web-scroll: bench/results/NAME.json).

const options = args();
const distDir = path.resolve(options.text('dist') ?? path.join(root, 'apps/web/dist'));
const TICKETS = options.int('tickets', 10_000);
const MESSAGES = options.int('messages', 10_000);
const TICKET_PAGE_SIZE = 40;
const MESSAGE_PAGE_SIZE = options.int('message-page-size', 200);
const SPEED_PX_PER_S = options.int('speed', 6000);
const MAX_PHASE_MS = options.int('max-seconds', 300) * 1000;
const OUT = options.text('out') ?? 'web-scroll';
const VIEWPORT = { width: 1280, height: 800 };
// Days the messages are spread over, so that the chat has date separators.
const MESSAGES_PER_DAY = 25;

const indexFile = path.join(distDir, 'index.html');
if (!existsSync(indexFile)) {
  console.error(`No web build in ${distDir} (index.html missing): build the web app first.`);
  process.exit(1);
}

// --- Made-up data, shaped as the API answers it ---

const NOW = Date.now();
const MINUTE_MS = 60_000;
const iso = (at: number) => new Date(at).toISOString();
const uuidOf = (id: number) => `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`;
const lastMessages = [
  'Hola, ¿tienen envíos a Monterrey?',
  'Gracias',
  'Quisiera saber el estado de mi pedido A-1234, lo hice la semana pasada y aún no llega',
  '¿Cuál es el horario de atención?',
];

const ticketOf = (id: number): TicketView => ({
  id,
  uuid: uuidOf(id),
  status: 'open',
  queueId: 1,
  queue: { id: 1, name: 'Ventas', color: '#2e7d32' },
  userId: 1,
  user: { id: 1, name: 'Ana Admin' },
  contactId: id,
  contact: {
    id,
    name: `Cliente ${id}`,
    number: `52155${String(id).padStart(8, '0')}`,
    email: '',
    profilePicUrl: '',
    urlPicture: '',
    isGroup: false,
    whatsappId: 1,
    createdAt: iso(NOW - 30 * 24 * 60 * MINUTE_MS),
    updatedAt: iso(NOW - 30 * 24 * 60 * MINUTE_MS),
  },
  whatsappId: 1,
  whatsapp: { id: 1, name: 'Línea principal', status: 'CONNECTED' },
  isGroup: false,
  chatbot: false,
  lastMessage: lastMessages[id % lastMessages.length],
  lastContactMessage: lastMessages[id % lastMessages.length],
  unreadMessages: id % 5 === 0 ? id % 9 : 0,
  useIntegration: false,
  promptId: null,
  integrationId: null,
  tags: [],
  slaDueAt: null,
  slaKind: null,
  version: 0,
  createdAt: iso(NOW - id * MINUTE_MS),
  // Newest first, as the API orders the list.
  updatedAt: iso(NOW - id * MINUTE_MS),
});

const messageBodies = [
  'Hola, buenos días',
  '¿Me ayuda con mi pedido? Llegó incompleto: faltan dos piezas de la caja grande.',
  'Claro, ¿me comparte el número de pedido?',
  'A-1234',
  'Gracias, lo reviso y le escribo en un momento. Mientras tanto, ¿podría enviarme una foto del paquete tal como llegó?',
];

// Message 1 is the oldest, MESSAGES the newest (a minute ago).
const messageOf = (ticket: TicketView, id: number): ChatMessageView => {
  const dayFromNewest = Math.floor((MESSAGES - id) / MESSAGES_PER_DAY);
  const at =
    NOW -
    dayFromNewest * 24 * 60 * MINUTE_MS -
    ((MESSAGES - id) % MESSAGES_PER_DAY) * 20 * MINUTE_MS;
  return {
    id,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    body: messageBodies[id % messageBodies.length],
    fromMe: id % 3 === 0,
    read: true,
    mediaType: 'chat',
    mediaUrl: null,
    mediaName: null,
    mediaError: null,
    transcript: null,
    quotedMsgId: null,
    quotedMsg: null,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    ack: id % 3 === 0 ? 4 : 0,
    remoteJid: null,
    scheduled: false,
    promptId: null,
    createdAt: iso(at),
    updatedAt: iso(at),
    error: null,
    reactions: [],
  };
};

// A JWT-shaped token: the client reads its payload only.
const token = [
  { alg: 'HS256', typ: 'JWT' },
  { sid: 'bench', id: 1, companyId: 1 },
]
  .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
  .concat('signature')
  .join('.');

const session: AuthSession = {
  token,
  companyStatus: 'active',
  companyDueDate: iso(NOW + 30 * 24 * 60 * MINUTE_MS),
  user: {
    id: 1,
    name: 'Ana Admin',
    email: 'ana@bench.local',
    profile: 'admin',
    super: false,
    companyId: 1,
    allTicket: 'desabled',
    whatsappId: null,
    whatsapp: null,
    online: true,
    presence: 'online',
    availability: 'online',
    maxTickets: null,
    queueLimits: [],
    queues: [],
    queueIds: [],
    createdAt: iso(NOW),
    updatedAt: iso(NOW),
    company: {
      id: 1,
      name: 'Bench',
      status: 'active',
      dueDate: iso(NOW + 30 * 24 * 60 * MINUTE_MS),
      recurrence: 'MENSAL',
      settings: [],
      plan: {
        id: 1,
        name: 'Plus',
        users: 10,
        connections: 1,
        queues: 8,
        aiAgents: 1,
        aiMessages: 2000,
        aiTokens: 2_000_000,
        value: 99,
        useCampaigns: true,
        useKanban: true,
        useOpenAi: true,
        useIntegrations: true,
        useSchedules: true,
        useExternalApi: true,
        storageMb: 20480,
        stripePriceId: null,
        currency: 'usd',
      },
    },
  },
};

// --- The server: the build, /runtime-config.js, and the API under /api ---

const served = { messagePages: 0, ticketPages: 0, unknown: new Set<string>() };

const ticketsPage = (url: URL) => {
  // Only the open list has tickets; the waiting, closed and search lists are empty.
  const isOpenList =
    url.searchParams.get('status') === 'open' && !url.searchParams.get('searchParam');
  const total = isOpenList ? TICKETS : 0;
  const page = Number(url.searchParams.get('pageNumber') ?? 1);
  const from = (page - 1) * TICKET_PAGE_SIZE;
  const ids = Array.from(
    { length: Math.max(Math.min(TICKET_PAGE_SIZE, total - from), 0) },
    (_, index) => from + index + 1,
  );
  if (isOpenList) served.ticketPages = Math.max(served.ticketPages, page);
  return { tickets: ids.map(ticketOf), count: ids.length, hasMore: from + ids.length < total };
};

// Page 1 is the newest messages, as GET /messages/:ticketId pages them.
const messagesPage = (ticketId: number, url: URL) => {
  const ticket = ticketOf(ticketId);
  const page = Number(url.searchParams.get('pageNumber') ?? 1);
  const newest = MESSAGES - (page - 1) * MESSAGE_PAGE_SIZE;
  const oldest = Math.max(newest - MESSAGE_PAGE_SIZE + 1, 1);
  const messages =
    newest < 1
      ? []
      : Array.from({ length: newest - oldest + 1 }, (_, index) =>
          messageOf(ticket, newest - index),
        );
  served.messagePages = Math.max(served.messagePages, page);
  return { messages, ticket, count: messages.length, hasMore: oldest > 1, replyWindow: null };
};

const apiAnswer = (method: string, url: URL): [number, unknown] => {
  const route = `${method} ${url.pathname.replace(/^\/api/, '')}`;
  if (route === 'POST /auth/refresh_token') return [200, session];
  if (route === 'GET /auth/me') return [200, session.user];
  if (route === 'GET /version') return [200, { version: 'bench' }];
  if (route === 'GET /settings/' || route === 'GET /whatsapp') return [200, []];
  if (route === 'GET /quick-messages/list') return [200, []];
  if (route === 'GET /announcements') return [200, { records: [], count: 0, hasMore: false }];
  if (route === 'GET /schedules') return [200, { schedules: [], count: 0, hasMore: false }];
  if (route === 'GET /tickets') return [200, ticketsPage(url)];
  const ticketByUuid = /^GET \/tickets\/u\/0+-0+-4000-8000-0*(\d+)$/.exec(route);
  if (ticketByUuid) return [200, ticketOf(Number(ticketByUuid[1]))];
  const messages = /^GET \/messages\/(\d+)$/.exec(route);
  if (messages) return [200, messagesPage(Number(messages[1]), url)];
  served.unknown.add(route);
  return [404, { error: 'ERR_NOT_FOUND', message: `No bench answer for ${route}` }];
};

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

// The production policy's script and style rules (apps/api's webCspDirectives): a build that needs
// eval or an inline script fails here as it would there (the console errors are reported).
const contentSecurityPolicy =
  "default-src 'self'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'";

const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
};

const serveFile = (res: ServerResponse, pathname: string) => {
  const file = path.join(distDir, path.normalize(pathname).replace(/^([/\\])+/, ''));
  const isInDist = file.startsWith(distDir + path.sep);
  if (isInDist && existsSync(file) && statSync(file).isFile()) {
    send(
      res,
      200,
      contentTypes[path.extname(file)] ?? 'application/octet-stream',
      readFileSync(file),
    );
    return;
  }
  // Any other address is a route of the app.
  res.writeHead(200, {
    'Content-Type': contentTypes['.html'],
    'Content-Security-Policy': contentSecurityPolicy,
  });
  res.end(readFileSync(indexFile));
};

const handle = (origin: () => string) => (req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', origin());
  if (url.pathname === '/runtime-config.js') {
    const config = `window.__APP_CONFIG__ = ${JSON.stringify({ apiUrl: `${origin()}/api` })};\n`;
    send(res, 200, contentTypes['.js'], config);
    return;
  }
  if (url.pathname.startsWith('/api/')) {
    // The body (a login, a message) is not needed by any answer here.
    req.resume();
    const [status, body] = apiAnswer(req.method ?? 'GET', url);
    send(res, status, contentTypes['.json'], JSON.stringify(body));
    return;
  }
  serveFile(res, url.pathname);
};

// --- In the page: the frame recorder and the steady scroll ---

// The browser's globals that the functions handed to the page use, declared for this file only
// (the bench's TypeScript setup has no DOM types, and giving it them would retype Node's fetch).
type PageElement = {
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
  readonly dataset: Record<string, string | undefined>;
  getBoundingClientRect: () => { top: number; bottom: number };
};
declare const document: {
  querySelector: (selector: string) => PageElement | null;
  querySelectorAll: (selector: string) => ArrayLike<PageElement>;
  getElementsByTagName: (name: string) => { length: number };
};
declare const window: object;
declare const requestAnimationFrame: (callback: (now: number) => void) => number;

type PageStats = { frames: number[]; nodes: number[]; heap: number[]; rows: number[] };

// Installed before the app runs. Records while `recording`: each frame's time since the previous
// one, and every 10th frame the element count, the JS heap and how many list rows are in the page.
const installRecorder = () => {
  const stats: PageStats = { frames: [], nodes: [], heap: [], rows: [] };
  const state = { recording: false, last: 0, count: 0 };
  const memory = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  const tick = (now: number) => {
    if (state.recording) {
      if (state.last) stats.frames.push(now - state.last);
      state.count += 1;
      if (state.count % 10 === 0) {
        stats.nodes.push(document.getElementsByTagName('*').length);
        stats.heap.push(memory()?.usedJSHeapSize ?? 0);
        stats.rows.push(document.querySelectorAll('li, [data-testid^="message-"]').length);
      }
    }
    state.last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  Object.assign(window, {
    __bench: {
      start: () => {
        state.recording = true;
        state.last = 0;
      },
      stop: () => {
        state.recording = false;
      },
      take: () => {
        const taken = { ...stats };
        stats.frames = [];
        stats.nodes = [];
        stats.heap = [];
        stats.rows = [];
        return taken;
      },
    },
  });
};

type Bench = { start: () => void; stop: () => void; take: () => PageStats };
const bench = (page: Page) => ({
  start: () => page.evaluate(() => (window as unknown as { __bench: Bench }).__bench.start()),
  stop: () => page.evaluate(() => (window as unknown as { __bench: Bench }).__bench.stop()),
  take: () => page.evaluate(() => (window as unknown as { __bench: Bench }).__bench.take()),
});

type ScrollArgs = { selector: string; direction: number; speed: number; untilMs: number };

// Scrolls the element by speed px/s, frame by frame (as far as the time since the last frame
// allows), until its end in that direction or the deadline. Resolves how it ended. Moves from where
// the element is, as a wheel does: the list may correct its position meanwhile (rows measured
// above the view, an older page prepended), and that correction must stand.
const scrollSteadily = ({ selector, direction, speed, untilMs }: ScrollArgs) =>
  new Promise<'end' | 'deadline' | 'missing'>((resolve) => {
    const element = document.querySelector(selector);
    if (!element) {
      resolve('missing');
      return;
    }
    let last = performance.now();
    // The fraction of a pixel not moved yet (scrollTop takes whole pixels).
    let carry = 0;
    const step = (now: number) => {
      const distance = speed * ((now - last) / 1000) + carry;
      carry = distance % 1;
      last = now;
      element.scrollTop += direction * Math.trunc(distance);
      const max = element.scrollHeight - element.clientHeight;
      const atEnd = direction > 0 ? element.scrollTop >= max - 1 : element.scrollTop <= 0;
      if (atEnd) resolve('end');
      else if (Date.now() > untilMs) resolve('deadline');
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });

// Whether check() held within timeoutMs (looked at every 50 ms).
const waitFor = (check: () => boolean | Promise<boolean>, timeoutMs: number) =>
  eventually(check, Boolean, 'the next page', { timeoutMs, everyMs: 50 }).then(
    () => true,
    () => false,
  );

// Resolves after the page has drawn `count` more frames.
const frames = (count: number) =>
  new Promise<void>((resolve) => {
    let left = count;
    const step = () => {
      left -= 1;
      if (left <= 0) resolve();
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });

// --- The phases ---

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

const frameSummary = (stats: PageStats) => {
  const { n, p50, p95, p99, max } = summarize(stats.frames);
  const share = (limit: number) =>
    n ? round((100 * stats.frames.filter((frame) => frame > limit).length) / n, 2) : 0;
  const largest = (values: number[]) => (values.length ? Math.max(...values) : 0);
  const median = (values: number[]) => (values.length ? summarize(values).p50 : 0);
  return {
    frames: n,
    frameMs: { p50: round(p50), p95: round(p95), p99: round(p99), max: round(max) },
    percentOver16_7ms: share(16.7),
    // At 60 Hz the deltas jitter around 16.7 ms, so the share above counts frames that were on time
    // too: above 25 ms, at least one screen refresh went by without a new frame.
    percentOver25ms: share(25),
    percentOver50ms: share(50),
    domElements: { median: median(stats.nodes), max: largest(stats.nodes) },
    rowsInDom: { median: median(stats.rows), max: largest(stats.rows) },
    jsHeapMB: { median: round(median(stats.heap) / 1e6), max: round(largest(stats.heap) / 1e6) },
  };
};

const TICKETS_SCROLL = '[data-testid="tickets-scroll"]';
const isAtBottom = (selector: string) => {
  const element = document.querySelector(selector);
  return !element || element.scrollHeight - element.clientHeight - element.scrollTop <= 1;
};
const MESSAGES_SCROLL = '[data-testid="messages-scroll"]';

// The open list from its first ticket to its last, pages loading on the way.
const scrollTicketList = async (page: Page, origin: string) => {
  await page.goto(`${origin}/tickets`);
  await page.getByRole('list', { name: 'Atendiendo' }).getByRole('listitem').first().waitFor();
  const until = Date.now() + MAX_PHASE_MS;
  const started = Date.now();
  await bench(page).start();
  // Exact: a row's text runs its parts together ("Cliente 1000" then "09:30" reads "Cliente 100009:30").
  const lastTicket = page.getByRole('listitem').getByText(`Cliente ${TICKETS}`, { exact: true });
  let reachedLastTicket = false;
  while (Date.now() < until && !reachedLastTicket) {
    const ended = await page.evaluate(scrollSteadily, {
      selector: TICKETS_SCROLL,
      direction: 1,
      speed: SPEED_PX_PER_S,
      untilMs: until,
    });
    if (ended !== 'end') break;
    // At the bottom: the last ticket, or the next page on its way (asked 100 px before the end),
    // which makes the list longer.
    await waitFor(
      async () =>
        (await lastTicket.count()) > 0 || !(await page.evaluate(isAtBottom, TICKETS_SCROLL)),
      5000,
    );
    reachedLastTicket = (await lastTicket.count()) > 0;
  }
  // The frames right after the scroll (about 300 ms) are recorded too.
  await page.evaluate(frames, 18);
  await bench(page).stop();
  return {
    ticketsLoaded: Math.min(served.ticketPages * TICKET_PAGE_SIZE, TICKETS),
    reachedLastTicket,
    seconds: round((Date.now() - started) / 1000),
    ...frameSummary(await bench(page).take()),
  };
};

// Where the first message in view is on screen, to tell whether a prepended page moved it.
const firstVisibleMessage = (selector: string) => {
  const box = document.querySelector(selector)!.getBoundingClientRect();
  const bubbles = Array.from(document.querySelectorAll('[data-testid^="message-"]'));
  const first = bubbles.find((bubble) => bubble.getBoundingClientRect().bottom > box.top);
  return first ? { id: first.dataset.testid!, top: first.getBoundingClientRect().top } : null;
};

const topOf = (id: string) =>
  document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect().top ?? null;

// Up through the whole conversation, waiting at the top for each older page; then down to the
// newest message through all of it.
const scrollChat = async (page: Page, origin: string) => {
  await page.goto(`${origin}/tickets/${uuidOf(1)}`);
  await page.getByTestId(`message-${MESSAGES}`).waitFor();
  const pages = Math.ceil(MESSAGES / MESSAGE_PAGE_SIZE);
  const until = Date.now() + MAX_PHASE_MS;
  const started = Date.now();
  const jumps: number[] = [];
  await bench(page).start();
  while (Date.now() < until && served.messagePages < pages) {
    await page.evaluate(scrollSteadily, {
      selector: MESSAGES_SCROLL,
      direction: -1,
      speed: SPEED_PX_PER_S,
      untilMs: until,
    });
    const before = await page.evaluate(firstVisibleMessage, MESSAGES_SCROLL);
    const asked = served.messagePages;
    if (!(await waitFor(() => served.messagePages > asked, 5000))) break;
    // Frames for the page to be rendered and the position corrected (about 130 ms).
    await page.evaluate(frames, 8);
    const after = before ? await page.evaluate(topOf, before.id) : null;
    if (before && after !== null) jumps.push(Math.abs(after - before.top));
  }
  const up = {
    messagesLoaded: Math.min(served.messagePages * MESSAGE_PAGE_SIZE, MESSAGES),
    seconds: round((Date.now() - started) / 1000),
    // How far the message read at the top moved when an older page arrived above it.
    prependJumpPx: summarize(jumps),
    ...frameSummary(await bench(page).take()),
  };
  const downStarted = Date.now();
  await bench(page).start();
  const ended = await page.evaluate(scrollSteadily, {
    selector: MESSAGES_SCROLL,
    direction: 1,
    speed: SPEED_PX_PER_S,
    untilMs: Date.now() + MAX_PHASE_MS,
  });
  await page.evaluate(frames, 18);
  await bench(page).stop();
  const down = {
    reachedNewest: ended === 'end' && (await page.getByTestId(`message-${MESSAGES}`).isVisible()),
    seconds: round((Date.now() - downStarted) / 1000),
    ...frameSummary(await bench(page).take()),
  };
  return { up, down };
};

// --- Run ---

let origin = '';
const server = createServer(handle(() => origin));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  // Exact heap figures instead of performance.memory's coarse buckets.
  args: ['--enable-precise-memory-info', '--no-sandbox'],
});
const consoleErrors: string[] = [];
try {
  const context = await browser.newContext({ viewport: VIEWPORT });
  // tsx compiles this file keeping function names (esbuild's __name helper): the functions handed
  // to the page carry calls to it, which the page must have.
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  await context.addInitScript(installRecorder);
  const page = await context.newPage();
  page.on('console', (message) => {
    // The refused socket.io connection and the API's deliberate 404s are expected.
    if (message.type() === 'error' && !/404|socket\.io|WebSocket/i.test(message.text()))
      consoleErrors.push(message.text());
  });
  console.log(`serving ${path.relative(root, distDir) || distDir} at ${origin}`);
  const ticketList = await scrollTicketList(page, origin);
  console.log('ticket list', ticketList);
  const chat = await scrollChat(page, origin);
  console.log('chat up', chat.up);
  console.log('chat down', chat.down);

  const result = {
    machine: {
      cpus: os.availableParallelism(),
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      loadAverage: os.loadavg().map((load) => round(load, 2)),
      node: process.version,
      chromium: browser.version(),
      at: new Date().toISOString(),
    },
    dist: { dir: path.relative(root, distDir) || distDir, builtAt: statSync(indexFile).mtime },
    setup: {
      tickets: TICKETS,
      ticketPageSize: TICKET_PAGE_SIZE,
      messages: MESSAGES,
      messagePageSize: MESSAGE_PAGE_SIZE,
      speedPxPerS: SPEED_PX_PER_S,
      maxSecondsPerPhase: MAX_PHASE_MS / 1000,
      viewport: VIEWPORT,
    },
    units: 'frame times in ms (requestAnimationFrame deltas); heap in MB (10^6 bytes)',
    ticketList,
    chat,
    consoleErrors: consoleErrors.slice(0, 10),
    unansweredApiCalls: [...served.unknown].sort(),
  };
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${OUT}.json`);
  const prettier = await resolveConfig(file);
  writeFileSync(file, await format(JSON.stringify(result), { ...prettier, parser: 'json' }));
  console.log(`written to ${path.relative(root, file)}`);
} finally {
  await browser.close();
  server.close();
}
