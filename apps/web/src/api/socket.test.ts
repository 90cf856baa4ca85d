import { io } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadPage } from '../lib/browser';
import { makeAuth, makeToken } from '../test/fixtures';
import type { FakeSocket } from '../test/fake-socket';
import { setSession } from './session';
import { connectSocket, disconnectSocket, getSocket } from './socket';

const connect = () => {
  setSession(makeAuth({ token: makeToken({ sid: 'my-session', id: 1, companyId: 7 }) }));
  connectSocket({ userId: 1, companyId: 7 });
  return getSocket() as unknown as FakeSocket;
};

describe('socket client', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connects to the API over websocket with the token in the query', () => {
    connect();
    expect(io).toHaveBeenCalledWith('http://localhost:8080', {
      transports: ['websocket'],
      query: { token: makeToken({ sid: 'my-session', id: 1, companyId: 7 }) },
    });
  });

  it('signs out and reloads when the same account logs in elsewhere', () => {
    const socket = connect();

    socket.receive('company-7-auth', {
      action: 'update',
      user: { id: 1 },
      sessionId: 'other-session',
    });

    expect(window.localStorage.getItem('token')).toBeNull();
    expect(reloadPage).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('ignores its own session and other users', () => {
    const socket = connect();

    socket.receive('company-7-auth', {
      action: 'update',
      user: { id: 1 },
      sessionId: 'my-session',
    });
    socket.receive('company-7-auth', { action: 'update', user: { id: 2 }, sessionId: 'x' });
    vi.advanceTimersByTime(2000);

    expect(window.localStorage.getItem('token')).not.toBeNull();
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('refreshes the session and reconnects when the socket rejects an expired token', async () => {
    const socket = connect();
    const refreshed = makeAuth({
      token: makeToken({ sid: 'my-session', id: 1, companyId: 7, n: 2 }),
    });
    const fetchMock = vi
      .fn()
      .mockResolvedValue(new Response(JSON.stringify(refreshed), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);

    socket.receive('connect_error', new Error('websocket error'));
    expect(fetchMock).not.toHaveBeenCalled();

    socket.receive('connect_error', new Error('ERR_INVALID_TOKEN'));
    await vi.waitFor(() => expect(socket.connects).toBe(1));
    expect(String(fetchMock.mock.calls[0][0])).toContain('/auth/refresh_token');
    expect(socket.io.opts.query.token).toBe(refreshed.token);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('reloads the page when the session cannot be refreshed', async () => {
    const socket = connect();
    const expired = { error: 'ERR_SESSION_EXPIRED', message: 'Session expired' };
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(new Response(JSON.stringify(expired), { status: 401 })),
    );

    socket.receive('connect_error', new Error('ERR_SESSION_EXPIRED'));
    await vi.waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(socket.connects).toBe(0);
  });

  it('refreshes and reconnects when the server drops the socket (it stopped, or rotated nodes)', async () => {
    const socket = connect();
    const refreshed = makeAuth({
      token: makeToken({ sid: 'my-session', id: 1, companyId: 7, n: 3 }),
    });
    const fetchMock = vi
      .fn()
      .mockResolvedValue(new Response(JSON.stringify(refreshed), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);

    socket.receive('disconnect', 'transport close');
    expect(fetchMock).not.toHaveBeenCalled();

    socket.receive('disconnect', 'io server disconnect');
    await vi.waitFor(() => expect(socket.connects).toBe(1));
    expect(socket.io.opts.query.token).toBe(refreshed.token);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('keeps the page and lets socket.io retry when the dropped socket cannot reach the API', async () => {
    const socket = connect();
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    socket.receive('disconnect', 'io server disconnect');
    await vi.waitFor(() => expect(socket.connects).toBe(1));
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('reloads the page when the server dropped the socket because its session ended', async () => {
    const socket = connect();
    const expired = { error: 'ERR_SESSION_EXPIRED', message: 'Session expired' };
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(new Response(JSON.stringify(expired), { status: 401 })),
    );

    socket.receive('disconnect', 'io server disconnect');
    await vi.waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(socket.connects).toBe(0);
  });

  it('leaves the "used elsewhere" notice on screen when the other login drops the socket', () => {
    const socket = connect();
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);

    socket.receive('company-7-auth', { action: 'update', user: { id: 1 }, sessionId: 'other' });
    socket.receive('disconnect', 'io server disconnect');

    expect(fetchMock).not.toHaveBeenCalled();
    expect(reloadPage).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('reconnects with the newest token after a refresh', () => {
    const socket = connect();
    setSession(makeAuth({ token: 'refreshed-token' }));
    expect(socket.io.opts.query.token).toBe('refreshed-token');
  });

  it('closes the socket on disconnect', () => {
    const socket = connect();
    disconnectSocket();
    expect(getSocket()).toBeNull();
    expect(socket.listenerCount('company-7-auth')).toBe(0);
  });
});
