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
      level: 20,
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

  it("keeps a connection's verify token and a signed link's signature out of the logged URL", async () => {
    const log = capture();
    context = await createTestApp({ LOG_LEVEL: 'debug' }, { logStream: log.stream });
    const verify =
      '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=VerifyMe77&hub.challenge=4242';
    await context.app.inject({ method: 'GET', url: verify });
    await context.app.inject({ method: 'GET', url: '/uploads/1/a.png?expires=9&sig=SignedAbc' });
    const urls = log.lines.flatMap((line) => {
      const req = line.req as { url?: string } | undefined;
      return req?.url ? [req.url] : [];
    });
    expect(urls).toEqual(
      expect.arrayContaining([
        '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=4242',
        '/uploads/1/a.png?expires=9&sig=[redacted]',
      ]),
    );
    expect(JSON.stringify(log.lines)).not.toMatch(/VerifyMe77|SignedAbc/);
  });
});
