import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SharedTestContext } from '../../test/harness';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-body';

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects inside each other, not brackets inside strings', () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds('['.repeat(10) + ']'.repeat(10), 9)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ text: '[[[[{{{{\\"[[[[' }), 2)).toBe(false);
    expect(jsonDepthExceeds('[1,[2],[3,[4]]]', 3)).toBe(false);
  });
});

describe('deeply nested JSON bodies', () => {
  let t: SharedTestContext;
  beforeAll(async () => {
    t = await sharedTestApp();
  });

  const post = (url: string, payload: string) =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });

  it.each(['/auth/login', '/companies/cadastro', '/webhooks/whatsapp', '/subscriptions/webhook'])(
    'are refused with 400 before anything else, without login: %s',
    async (url) => {
      const res = await post(url, '['.repeat(100_000) + ']'.repeat(100_000));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
      expect(res.json<{ message: string }>().message).toMatch(/nested/);
      expect((await post(url, nested(50_000))).statusCode).toBe(400);
    },
  );

  it('still reads a body nested as deep as the limit', async () => {
    const res = await post('/auth/login', nested(MAX_JSON_DEPTH));
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).not.toMatch(/nested/);
  });
});
