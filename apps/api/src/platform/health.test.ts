import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../test/harness';
import { createHealth } from './health';

describe('readiness of a node', () => {
  it('is not ready while starting or draining, nor while a dependency fails or hangs', async () => {
    let databaseUp = true;
    const health = createHealth({
      timeoutMs: 50,
      checks: {
        database: async () => {
          if (!databaseUp) throw new Error('connection refused');
        },
        storage: async () => undefined,
      },
    });
    expect(await health.readiness()).toMatchObject({ state: 'starting', ready: false });
    health.started();
    expect(await health.readiness()).toEqual({
      state: 'ready',
      ready: true,
      checks: { database: 'ok', storage: 'ok' },
      failures: {},
    });
    databaseUp = false;
    expect(await health.readiness()).toEqual({
      state: 'ready',
      ready: false,
      checks: { database: 'failed', storage: 'ok' },
      failures: { database: 'connection refused' },
    });
    databaseUp = true;
    health.drain();
    expect(await health.readiness()).toMatchObject({ state: 'draining', ready: false });
    // A draining node does not come back by itself.
    health.started();
    expect((await health.readiness()).state).toBe('draining');
  });

  it('counts a probe that does not answer in time as failed, without waiting for it', async () => {
    const health = createHealth({
      timeoutMs: 30,
      checks: { redis: () => new Promise(() => undefined) },
    });
    health.started();
    expect(await health.readiness()).toMatchObject({
      ready: false,
      checks: { redis: 'timeout' },
    });
  });
});

describe('GET /health/live and /health/ready', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answer without a login: live, and ready with each dependency checked', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: {
        database: 'ok',
        storage: 'ok',
        ...(t.config.redisUrl ? { redis: 'ok' } : {}),
      },
    });
  });

  it('answers 503 naming the failing dependency, but never the reason (it may name hosts)', async () => {
    const failing = vi
      .spyOn(t.app.deps.files, 'check')
      .mockRejectedValue(new Error('EACCES: /srv/secret-mount/uploads'));
    try {
      const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        error: 'ERR_NOT_READY',
        details: { state: 'ready', checks: { database: 'ok', storage: 'failed' } },
      });
      expect(res.body).not.toContain('secret-mount');
    } finally {
      failing.mockRestore();
    }
    expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
  });

  it('answers 503 once the node drains, while live and the rest of the API still answer', async () => {
    t.app.deps.health.drain();
    const res = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      error: 'ERR_NOT_READY',
      message: 'The server is shutting down',
      details: { state: 'draining' },
    });
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/version' })).statusCode).toBe(200);
  });
});
