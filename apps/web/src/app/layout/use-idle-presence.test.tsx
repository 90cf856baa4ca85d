import { act, fireEvent } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSocket } from '../../api/socket';
import { advanceClock } from '../../test/clock';
import type { FakeSocket } from '../../test/fake-socket';
import { makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { IDLE_AFTER_MS, useIdlePresence } from './use-idle-presence';

const MINUTE_MS = 60_000;

const IdleProbe = () => {
  useIdlePresence();
  return null;
};

// The tab as the app sees it: its socket connected, inactivity timed by a clock the test moves.
const renderIdleProbe = () => {
  stubApi({});
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  renderPage(<IdleProbe />, '/', makeAuth());
  const socket = getSocket() as unknown as FakeSocket;
  socket.connected = true;
  return socket;
};

// What the tab told the server about its idleness (`idle`) or its being in the background
// (`hidden`), in order.
const reportsOf = (socket: FakeSocket, key: 'idle' | 'hidden') =>
  socket.emitted
    .filter(([event, payload]) => event === 'presence' && key in (payload as object))
    .map(([, payload]) => payload);
const idleReports = (socket: FakeSocket) => reportsOf(socket, 'idle');

let hidden = false;
const setHidden = (value: boolean) => {
  hidden = value;
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  fireEvent(document, new Event('visibilitychange'));
};

afterEach(() => {
  // Back to jsdom's own (always visible) document.
  delete (document as { hidden?: boolean }).hidden;
  hidden = false;
});

describe('idle presence', () => {
  it('says the tab is idle after 5 minutes without activity, and in use on the next activity', async () => {
    const socket = renderIdleProbe();

    await advanceClock(4 * MINUTE_MS);
    // Activity starts the 5 minutes again.
    fireEvent.keyDown(document.body, { key: 'a' });
    await advanceClock(IDLE_AFTER_MS - 1);
    expect(idleReports(socket)).toEqual([]);
    await advanceClock(1);
    expect(idleReports(socket)).toEqual([{ idle: true }]);

    // Once, however long it stays idle.
    await advanceClock(3 * IDLE_AFTER_MS);
    expect(idleReports(socket)).toEqual([{ idle: true }]);

    fireEvent.pointerMove(document.body);
    expect(idleReports(socket)).toEqual([{ idle: true }, { idle: false }]);
    // More activity while in use says nothing new.
    fireEvent.pointerDown(document.body);
    fireEvent.wheel(document.body);
    fireEvent.touchStart(document.body);
    expect(idleReports(socket)).toEqual([{ idle: true }, { idle: false }]);

    await advanceClock(IDLE_AFTER_MS);
    expect(idleReports(socket)).toEqual([{ idle: true }, { idle: false }, { idle: true }]);
  });

  it('counts a hidden tab as unused, and coming back to it as activity', async () => {
    const socket = renderIdleProbe();

    await advanceClock(MINUTE_MS);
    setHidden(true);
    await advanceClock(IDLE_AFTER_MS - MINUTE_MS);
    expect(idleReports(socket)).toEqual([{ idle: true }]);

    // What a hidden tab hears is not its user's doing.
    fireEvent.keyDown(document.body, { key: 'a' });
    expect(idleReports(socket)).toEqual([{ idle: true }]);

    setHidden(false);
    expect(idleReports(socket)).toEqual([{ idle: true }, { idle: false }]);
  });

  it('tells the server when the tab goes to the background and back, also to a socket that reconnects', () => {
    const socket = renderIdleProbe();
    setHidden(true);
    expect(reportsOf(socket, 'hidden')).toEqual([{ hidden: true }]);
    act(() => socket.receive('connect'));
    expect(reportsOf(socket, 'hidden')).toEqual([{ hidden: true }, { hidden: true }]);
    setHidden(false);
    expect(reportsOf(socket, 'hidden')).toEqual([
      { hidden: true },
      { hidden: true },
      { hidden: false },
    ]);
    // In front, a reconnected socket needs no word: it starts so.
    act(() => socket.receive('connect'));
    expect(reportsOf(socket, 'hidden')).toHaveLength(3);
  });

  it('says it again to a socket that reconnects while the tab is idle', async () => {
    const socket = renderIdleProbe();

    // A reconnected socket starts as in use: nothing to repeat while the tab is.
    act(() => socket.receive('connect'));
    expect(idleReports(socket)).toEqual([]);

    // Idle while disconnected: nothing is sent then, and it is said once the socket is back.
    socket.connected = false;
    await advanceClock(IDLE_AFTER_MS);
    expect(idleReports(socket)).toEqual([]);
    socket.connected = true;
    act(() => socket.receive('connect'));
    expect(idleReports(socket)).toEqual([{ idle: true }]);

    act(() => socket.receive('connect'));
    expect(idleReports(socket)).toEqual([{ idle: true }, { idle: true }]);

    fireEvent.keyDown(document.body, { key: 'a' });
    act(() => socket.receive('connect'));
    expect(idleReports(socket)).toEqual([{ idle: true }, { idle: true }, { idle: false }]);
  });
});
