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

  it('reloads the page when the socket rejects an expired token', () => {
    const socket = connect();

    socket.receive('connect_error', new Error('websocket error'));
    expect(reloadPage).not.toHaveBeenCalled();

    socket.receive('connect_error', new Error('ERR_SESSION_EXPIRED'));
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
