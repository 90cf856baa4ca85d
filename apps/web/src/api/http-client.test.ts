import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeAuth, mockApi } from '../test/fixtures';
import { queueOptionsContract, queuesContract } from '@atendi/shared';
import { ApiError, call, request } from './http-client';
import { getSessionState, getToken, setSession } from './session';

const bearerOf = (init: RequestInit) => new Headers(init.headers).get('Authorization');
const invalidToken = () =>
  jsonResponse(403, { error: 'ERR_INVALID_TOKEN', message: 'Invalid token' });

describe('http client', () => {
  it('refreshes once for several concurrent invalid-token answers and retries them all', async () => {
    setSession(makeAuth({ token: 'old-token' }));
    let refreshes = 0;
    let releaseRefresh = () => undefined as void;
    const fetchMock = vi.fn(
      mockApi({
        'POST /auth/refresh_token': async () => {
          refreshes += 1;
          await new Promise<void>((resolve) => (releaseRefresh = resolve));
          return jsonResponse(200, makeAuth({ token: 'new-token' }));
        },
        'GET /tickets': (init) =>
          bearerOf(init) === 'Bearer new-token' ? jsonResponse(200, ['t']) : invalidToken(),
        'GET /contacts': (init) =>
          bearerOf(init) === 'Bearer new-token' ? jsonResponse(200, ['c']) : invalidToken(),
        'GET /queue': (init) =>
          bearerOf(init) === 'Bearer new-token' ? jsonResponse(200, ['q']) : invalidToken(),
      }),
    );
    vi.stubGlobal('fetch', fetchMock);

    const pending = Promise.all([
      request('GET', '/tickets'),
      request('GET', '/contacts'),
      request('GET', '/queue'),
    ]);
    await vi.waitFor(() => expect(refreshes).toBe(1));
    releaseRefresh();

    await expect(pending).resolves.toEqual([['t'], ['c'], ['q']]);
    expect(refreshes).toBe(1);
    expect(getToken()).toBe('new-token');
    expect(getSessionState().status).toBe('authenticated');
    // Three first attempts, one refresh, three retries.
    expect(fetchMock).toHaveBeenCalledTimes(7);
  });

  it('sends the bearer token and the cookie with every call', async () => {
    setSession(makeAuth({ token: 'abc' }));
    const fetchMock = vi.fn(mockApi({ 'GET /version': () => jsonResponse(200, { version: '1' }) }));
    vi.stubGlobal('fetch', fetchMock);

    await request('GET', '/version');

    const init = fetchMock.mock.calls[0][1] as RequestInit;
    expect(init.credentials).toBe('include');
    expect(bearerOf(init)).toBe('Bearer abc');
    expect(String(fetchMock.mock.calls[0][0])).toBe('http://localhost:8080/version');
  });

  it('clears the session on a 401', async () => {
    setSession(makeAuth());
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'GET /auth/me': () =>
            jsonResponse(401, { error: 'ERR_SESSION_EXPIRED', message: 'Session expired' }),
        }),
      ),
    );

    await expect(request('GET', '/auth/me')).rejects.toMatchObject({
      status: 401,
      code: 'ERR_SESSION_EXPIRED',
    });
    expect(getSessionState().status).toBe('anonymous');
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('keeps the session on a 403 that is not about the token', async () => {
    setSession(makeAuth({ token: 'abc' }));
    const fetchMock = vi.fn(
      mockApi({
        'GET /settings/': () =>
          jsonResponse(403, { error: 'ERR_NO_PERMISSION', message: 'No permission' }),
      }),
    );
    vi.stubGlobal('fetch', fetchMock);

    const error = await request('GET', '/settings/').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('ERR_NO_PERMISSION');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getSessionState().status).toBe('authenticated');
    expect(getToken()).toBe('abc');
  });

  it('clears the session when the retried request is rejected again', async () => {
    setSession(makeAuth({ token: 'old-token' }));
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/refresh_token': () => jsonResponse(200, makeAuth({ token: 'new-token' })),
          'GET /tickets': invalidToken,
        }),
      ),
    );

    await expect(request('GET', '/tickets')).rejects.toMatchObject({ code: 'ERR_INVALID_TOKEN' });
    expect(getSessionState().status).toBe('anonymous');
  });

  it('clears the session when the refresh fails', async () => {
    setSession(makeAuth({ token: 'old-token' }));
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/refresh_token': () =>
            jsonResponse(401, { error: 'ERR_SESSION_EXPIRED', message: 'Session expired' }),
          'GET /tickets': invalidToken,
        }),
      ),
    );

    await expect(request('GET', '/tickets')).rejects.toMatchObject({ code: 'ERR_SESSION_EXPIRED' });
    expect(getSessionState().status).toBe('anonymous');
  });

  it('reports the Retry-After seconds of a 429', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/login': () =>
            jsonResponse(
              429,
              { error: 'ERR_TOO_MANY_REQUESTS', message: 'Too many' },
              { 'Retry-After': '42' },
            ),
        }),
      ),
    );

    await expect(
      request('POST', '/auth/login', { body: {}, skipAuth: true }),
    ).rejects.toMatchObject({
      status: 429,
      retryAfter: 42,
    });
  });

  it('turns an unreachable server into a network error without logging out', async () => {
    setSession(makeAuth());
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    await expect(request('GET', '/tickets')).rejects.toMatchObject({
      status: 0,
      code: 'ERR_NETWORK',
    });
    expect(getSessionState().status).toBe('authenticated');
  });

  it('calls a route through its contract: path parameters, query and JSON body', async () => {
    setSession(makeAuth({ token: 'abc' }));
    const fetchMock = vi.fn(
      mockApi({
        'PUT /queue/7': (init) =>
          jsonResponse(200, { id: 7, ...(JSON.parse(String(init.body)) as object) }),
        'GET /queue-options': ({ url }) => jsonResponse(200, [{ query: url.search }]),
      }),
    );
    vi.stubGlobal('fetch', fetchMock);

    await expect(
      call(queuesContract.updateQueue, { params: { id: 7 }, body: { name: 'Ventas' } }),
    ).resolves.toEqual({ id: 7, name: 'Ventas' });
    await expect(
      call(queueOptionsContract.listQueueOptions, { query: { queueId: 7, parentId: -1 } }),
    ).resolves.toEqual([{ query: '?queueId=7&parentId=-1' }]);
    const init = fetchMock.mock.calls[0][1] as RequestInit;
    expect(init.method).toBe('PUT');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    expect(bearerOf(init)).toBe('Bearer abc');
  });

  it('refreshes and retries a contract call like any other', async () => {
    setSession(makeAuth({ token: 'old-token' }));
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/refresh_token': () => jsonResponse(200, makeAuth({ token: 'new-token' })),
          'DELETE /queue/3': (init) =>
            bearerOf(init) === 'Bearer new-token' ? jsonResponse(204) : invalidToken(),
        }),
      ),
    );

    await expect(call(queuesContract.deleteQueue, { params: { id: 3 } })).resolves.toBeUndefined();
    expect(getToken()).toBe('new-token');
  });
});
