import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/harness';

// What the app writes to its log, one parsed JSON line each.
const capture = () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
};

let context: TestContext | undefined;
afterEach(async () => {
  await context?.close();
  context = undefined;
});

describe('request logging', () => {
  it('writes nothing per request at the default level (info)', async () => {
    const log = capture();
    context = await createTestApp({}, { logStream: log.stream });
    const before = log.lines.length;
    const answers = await Promise.all([
      context.app.inject({ method: 'GET', url: '/version' }),
      context.app.inject({ method: 'GET', url: '/tickets' }),
      context.app.inject({ method: 'GET', url: '/uploads/1/none.png?expires=1&sig=x' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404]);
    expect(log.lines.slice(before)).toEqual([]);
  });

  it('writes one line per request at LOG_LEVEL=debug, with its status and the URL redacted', async () => {
    const log = capture();
    context = await createTestApp({ LOG_LEVEL: 'debug' }, { logStream: log.stream });
    await context.app.inject({ method: 'GET', url: '/version' });
    await context.app.inject({ method: 'POST', url: '/resetpasswords/a%40b.c/123456/Hidden99' });
    const requests = log.lines.filter((line) => line.req || line.res);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      level: 'debug',
      msg: 'request completed',
      req: { method: 'GET', url: '/version' },
      res: { statusCode: 200 },
    });
    expect(requests[0].responseTime).toEqual(expect.any(Number));
    expect(requests[1]).toMatchObject({
      req: { method: 'POST', url: '/resetpasswords/a%40b.c/[redacted]/[redacted]' },
    });
    expect(JSON.stringify(log.lines)).not.toMatch(/123456|Hidden99/);
  });

  it("keeps a connection's verify token, a signed link's signature and an SSO answer out of the logged URL", async () => {
    const log = capture();
    context = await createTestApp({ LOG_LEVEL: 'debug' }, { logStream: log.stream });
    const verify =
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=VerifyMe77&hub.challenge=4242';
    await context.app.inject({ method: 'GET', url: verify });
    await context.app.inject({ method: 'GET', url: '/uploads/1/a.png?expires=9&sig=SignedAbc' });
    await context.app.inject({
      method: 'GET',
      url: '/auth/sso/callback?code=CodeXyz&state=StateXyz&iss=https%3A%2F%2Fidp',
    });
    const urls = log.lines.flatMap((line) => {
      const req = line.req as { url?: string } | undefined;
      return req?.url ? [req.url] : [];
    });
    expect(urls).toEqual(
      expect.arrayContaining([
        '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=4242',
        '/uploads/1/a.png?expires=9&sig=[redacted]',
        '/auth/sso/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp',
      ]),
    );
    expect(JSON.stringify(log.lines)).not.toMatch(/VerifyMe77|SignedAbc|CodeXyz|StateXyz/);
  });

  it('logs a server error and a slow request at info, with the request id it answers', async () => {
    const log = capture();
    // Anything taking 1 ms or more is slow here: a login (its password hash) always does.
    context = await createTestApp({ SLOW_REQUEST_MS: '1' }, { logStream: log.stream });
    const before = log.lines.length;
    const slow = await context.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'nobody@test.local', password: 'Wrong12345' },
      headers: { 'x-request-id': 'edge-7f3a.1' },
    });
    expect(slow.statusCode).toBe(401);
    expect(slow.headers['x-request-id']).toBe('edge-7f3a.1');
    context.app.deps.health.drain();
    const failed = await context.app.inject({ method: 'GET', url: '/health/ready' });
    expect(failed.statusCode).toBe(503);
    const requests = log.lines.slice(before).filter((line) => line.req || line.res);
    expect(requests).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'slow request',
        requestId: 'edge-7f3a.1',
        res: { statusCode: 401 },
      }),
      expect.objectContaining({
        level: 'info',
        msg: 'request failed',
        requestId: failed.headers['x-request-id'],
        res: { statusCode: 503 },
      }),
    ]);
  });

  it('gives every request an id, replacing one from outside that is not a plain token', async () => {
    context = await createTestApp();
    const ids = await Promise.all(
      ['', 'x'.repeat(200), 'a b\nforged line', '<script>'].map(async (given) => {
        const res = await context!.app.inject({
          method: 'GET',
          url: '/version',
          headers: given ? { 'x-request-id': given } : {},
        });
        return String(res.headers['x-request-id']);
      }),
    );
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
