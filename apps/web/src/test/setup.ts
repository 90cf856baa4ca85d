import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { clearSession } from '../api/session';
import { disconnectSocket } from '../api/socket';
import { i18n } from '../i18n/i18n';
import { createFakeSocket } from './fake-socket';

// No test may open a real socket.
vi.mock('socket.io-client', () => ({ io: vi.fn(() => createFakeSocket()) }));

vi.mock('../lib/browser', () => ({ reloadPage: vi.fn() }));

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

beforeEach(async () => {
  window.innerWidth = 1280;
  window.matchMedia = matchMedia;
  await i18n.changeLanguage('es');
});

afterEach(() => {
  cleanup();
  disconnectSocket();
  clearSession();
  window.localStorage.clear();
  vi.unstubAllGlobals();
});
