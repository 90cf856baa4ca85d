import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getSessionState, subscribeSession } from '../../api/session';
import { showOfflinePage } from '../../test/module-mocks';
import { jsonResponse, makeAuth, mockApi } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { restoreSession } from './auth.api';

describe('session restore on start', () => {
  it('restores the session from the refresh cookie', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/refresh_token': () => jsonResponse(200, makeAuth({ token: 'restored' })),
          'GET /version': () => jsonResponse(200, { version: '1.0.0' }),
          'GET /settings/': () => jsonResponse(200, []),
        }),
      ),
    );

    await restoreSession();

    expect(getSessionState().status).toBe('authenticated');
    expect(getSessionState().session?.token).toBe('restored');
  });

  it('lands a single sign-on where a login does', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/refresh_token': () => jsonResponse(200, makeAuth({ token: 'from-sso' })),
        }),
      ),
    );
    window.history.replaceState(null, '', '/login?sso=done');
    // The login page's guard moves on the first signed-in state it sees: each one already says
    // where to go (a first state without it sent the browser to / instead).
    const seen: (string | null)[] = [];
    const stop = subscribeSession(() => {
      const { status, afterLogin } = getSessionState();
      if (status === 'authenticated') seen.push(afterLogin);
    });
    try {
      await restoreSession();
    } finally {
      stop();
      window.history.replaceState(null, '', '/');
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((landing) => landing === '/tickets')).toBe(true);
    expect(getSessionState().afterLogin).toBe('/tickets');

    // Any other start stays where it was opened.
    await restoreSession();
    expect(getSessionState().afterLogin).toBeNull();
  });

  it('ends anonymous when neither the cookie nor a stored token works', async () => {
    window.localStorage.setItem('token', 'stale');
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/refresh_token': () =>
            jsonResponse(401, { error: 'ERR_SESSION_EXPIRED', message: 'Session expired' }),
          'GET /auth/me': () =>
            jsonResponse(403, { error: 'ERR_INVALID_TOKEN', message: 'Invalid token' }),
        }),
      ),
    );

    await restoreSession();

    expect(getSessionState().status).toBe('anonymous');
    expect(window.localStorage.getItem('token')).toBeNull();
    renderApp('/tickets', null);
    expect(await screen.findByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeTruthy();
  });

  it('sends the browser to the offline page when the API cannot be reached', async () => {
    window.localStorage.setItem('token', 'kept');
    const fetchMock = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    vi.stubGlobal('fetch', fetchMock);

    await restoreSession();

    expect(showOfflinePage).toHaveBeenCalledTimes(1);
    // Not signed out: nothing is known of the session, which the retry may still restore.
    expect(window.localStorage.getItem('token')).toBe('kept');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
