import { cleanup, configure } from '@testing-library/react';
import { notifyManager } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { clearSession } from '../api/session';
import { disconnectSocket } from '../api/socket';
import { languages } from '@atendi/shared';
import { i18n, initI18n } from '../i18n/i18n';
import { preloadLazyComponents } from '../lib/lazy-component';
import { resetModuleMocks } from './module-mocks';
import { layOutVirtualLists } from './virtual-layout';

// findBy* and waitFor give up after 1 s by default: too tight on a busy two-core machine (CI runs
// the API suite beside this one), where a passing test then fails now and then. A passing wait ends
// early; a test's own limit is in vitest.config.ts.
configure({ asyncUtilTimeout: 3000 });

// The app fetches a language's texts when it is chosen; tests have both at hand, so that a test
// can switch languages without waiting.
await initI18n(languages);

layOutVirtualLists();

// TanStack Query tells components of a change in a batch run on a 0 ms timer; here it runs in a
// microtask, so that `await act(async () => …)` around a socket event or cache write is enough for
// the screen to show it (or to show that nothing changed), without a timer to wait for.
notifyManager.setScheduler(queueMicrotask);

// The stand-ins are the worker's one set (test/module-mocks.ts): the app's modules outlive a file.
// No test may open a real socket.
vi.mock('socket.io-client', async () => ({ io: (await import('./module-mocks')).io }));

vi.mock('../lib/browser', async () => {
  const { reloadPage, goToUrl, showOfflinePage } = await import('./module-mocks');
  return { reloadPage, goToUrl, showOfflinePage };
});

// Forms send at once: SPEC §9's 400/500 ms pauses would only slow every save down. A test of the
// pause itself puts the real one back (vi.importActual) and checks the delay it was asked for.
vi.mock('../lib/form-delay', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/form-delay')>()),
  waitBeforeSubmit: (await import('./module-mocks')).waitBeforeSubmit,
}));

// jsdom has no matchMedia; answer width queries from window.innerWidth like a browser would.
const matchMedia = (query: string): MediaQueryList => {
  const width = window.innerWidth;
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  };
};

// A worker runs its test files one after another in one window and module graph (vitest.config.ts
// `isolate: false`): what a file leaves behind fails that file, and is put back for the next one.
// The first hook, so that it runs whatever the others do.
let env: Record<string, string | undefined> | undefined;
beforeAll(() => {
  env = { ...process.env };
});
afterAll(() => {
  const fakeTimers = vi.isFakeTimers();
  vi.useRealTimers();
  const before = env ?? { ...process.env };
  env = undefined;
  const changed = [...new Set([...Object.keys(before), ...Object.keys(process.env)])].filter(
    (name) => process.env[name] !== before[name],
  );
  for (const name of changed) {
    if (before[name] === undefined) delete process.env[name];
    else process.env[name] = before[name];
  }
  const left = Array.from(document.body.children, (element) => element.outerHTML.slice(0, 80));
  document.body.replaceChildren();
  expect(fakeTimers, 'fake timers left on: vi.useRealTimers()').toBe(false);
  expect(changed, 'process.env changed').toEqual([]);
  expect(left, 'elements left in document.body').toEqual([]);
});

// The app loads pages and dialogs lazily; here the code of every one the test file imports is loaded
// before its tests start, as static imports would, so that they render at once and a busy machine's
// module loading does not count against a test's waits. The first file of a worker loads most of the
// app here (the later ones find it loaded): on a loaded machine that takes a while, hence its own
// limit, not the 10 s of a hook.
beforeAll(preloadLazyComponents, 120_000);

beforeEach(async () => {
  resetModuleMocks();
  window.innerWidth = 1280;
  window.matchMedia = matchMedia;
  await i18n.changeLanguage('es');
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  disconnectSocket();
  clearSession();
  window.localStorage.clear();
  vi.unstubAllGlobals();
});
