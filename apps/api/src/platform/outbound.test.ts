import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { createOutboundGuard, refusalIn, type Resolver } from './outbound';

// Two loopback servers stand for "the internet" (127.0.0.2, let through by the setting as an
// operator would a network of theirs) and "the server's own network" (127.0.0.1).
let inside: Server;
let outside: Server;
let insideUrl: string;
let outsidePort: number;
const insideHits: string[] = [];
const outsideHits: string[] = [];

const listen = (server: Server, host: string) =>
  new Promise<number>((resolve) =>
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  inside = createServer((req, res) => {
    insideHits.push(req.url ?? '');
    res.end('secret of the server');
  });
  outside = createServer((req, res) => {
    outsideHits.push(req.url ?? '');
    if (req.url === '/to-inside') {
      res.writeHead(302, { location: `${insideUrl}/metadata` });
      return res.end();
    }
    if (req.url === '/to-self') {
      res.writeHead(301, { location: '/landing' });
      return res.end();
    }
    res.end(`outside ${req.url}`);
  });
  insideUrl = `http://127.0.0.1:${await listen(inside, '127.0.0.1')}`;
  outsidePort = await listen(outside, '127.0.0.2');
});
afterAll(async () => {
  await new Promise((resolve) => inside.close(resolve));
  await new Promise((resolve) => outside.close(resolve));
});

const refusedBy = async (promise: Promise<unknown>) => refusalIn(await promise.catch((e) => e));

describe('the outbound guard', () => {
  const guard = createOutboundGuard({ allowPrivate: false });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://127.0.0.1:6379/',
    'http://0.0.0.0/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[64:ff9b::a00:1]/',
  ])('refuses %s without connecting', async (url) => {
    expect(await refusedBy(guard.fetch(url))).toBeDefined();
  });

  it.each([
    'file:///etc/passwd',
    'gopher://127.0.0.1:6379/_INFO',
    'ftp://example.com/',
    'nonsense',
  ])('refuses anything but http(s): %s', async (url) => {
    expect((await refusedBy(guard.fetch(url)))?.message).toMatch(/http|valid URL/);
  });

  it('refuses a name that resolves to a private address (localhost) when connecting', async () => {
    const port = new URL(insideUrl).port;
    expect(await refusedBy(guard.fetch(`http://localhost:${port}/`))).toBeDefined();
    expect(insideHits).toEqual([]);
  });

  it('answers a save-time field error naming the field', async () => {
    for (const url of [
      'http://localhost:6379/',
      'http://[::1]/',
      'gopher://x.io/',
      'http://10.1.2.3/',
    ]) {
      const error = await guard.check(url, 'urlN8N').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'ERR_OUTBOUND_URL_NOT_ALLOWED',
        status: 400,
        fields: { urlN8N: [expect.any(String)] },
      });
    }
    // A public address, or a name not resolvable yet (checked again at every call), is saved.
    await expect(guard.check('https://8.8.8.8/hook', 'urlN8N')).resolves.toBeUndefined();
    await expect(guard.check('https://flows.invalid/hook', 'urlN8N')).resolves.toBeUndefined();
  });

  it('lets the networks OUTBOUND_ALLOW_PRIVATE names through, and only those', async () => {
    const loopback = createOutboundGuard({ allowPrivate: ['127.0.0.0/8'] });
    expect(await (await loopback.fetch(`${insideUrl}/ok`)).text()).toBe('secret of the server');
    const everything = createOutboundGuard({ allowPrivate: true });
    expect((await everything.fetch(`${insideUrl}/all`)).status).toBe(200);
    const other = createOutboundGuard({ allowPrivate: ['10.0.0.0/8', '::1'] });
    expect(await refusedBy(other.fetch(`${insideUrl}/no`))).toBeDefined();
    expect(insideHits).toEqual(['/ok', '/all']);
    await Promise.all([loopback.close(), everything.close(), other.close()]);
  });

  it('checks every redirect again: to a private address refused, elsewhere followed', async () => {
    insideHits.length = 0;
    const allowed = createOutboundGuard({ allowPrivate: ['127.0.0.2/32'] });
    const outsideUrl = `http://127.0.0.2:${outsidePort}`;
    expect(await refusedBy(allowed.fetch(`${outsideUrl}/to-inside`))).toBeDefined();
    expect(insideHits).toEqual([]);
    const followed = await allowed.fetch(`${outsideUrl}/to-self`);
    expect(await followed.text()).toBe('outside /landing');
    // redirect: 'manual' hands the redirect itself back; 'error' refuses it.
    expect((await allowed.fetch(`${outsideUrl}/to-inside`, { redirect: 'manual' })).status).toBe(
      302,
    );
    expect(
      await refusedBy(allowed.fetch(`${outsideUrl}/to-self`, { redirect: 'error' })),
    ).toBeDefined();
    await allowed.close();
  });

  it('connects to the address it checked, and checks again at every connection (no rebinding)', async () => {
    outsideHits.length = 0;
    let answers = 0;
    // A name that first resolves to an allowed address, then to the server's own.
    const rebinding: Resolver = async () =>
      answers++ === 0
        ? [{ address: '127.0.0.2', family: 4 }]
        : [{ address: '127.0.0.1', family: 4 }];
    const allowed = createOutboundGuard({ allowPrivate: ['127.0.0.2/32'], resolve: rebinding });
    await expect(
      allowed.check(`http://flows.test:${outsidePort}/`, 'url'),
    ).resolves.toBeUndefined();
    expect(await refusedBy(allowed.fetch(`http://flows.test:${outsidePort}/late`))).toBeDefined();
    // Any private address among a name's answers refuses the name.
    const mixed = createOutboundGuard({
      allowPrivate: ['127.0.0.2/32'],
      resolve: async () => [
        { address: '127.0.0.2', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ],
    });
    expect(await refusedBy(mixed.fetch(`http://flows.test:${outsidePort}/mixed`))).toBeDefined();
    // The connection goes where the check said: only 127.0.0.2 listens on this port.
    const pinned = createOutboundGuard({
      allowPrivate: ['127.0.0.2/32'],
      resolve: async () => [{ address: '127.0.0.2', family: 4 }],
    });
    expect(await (await pinned.fetch(`http://flows.test:${outsidePort}/pinned`)).text()).toBe(
      'outside /pinned',
    );
    expect(outsideHits).toEqual(['/pinned']);
    await Promise.all([allowed.close(), mixed.close(), pinned.close()]);
  });

  it('sends FormData bodies (the SDKs upload files with them) intact', async () => {
    const echo = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.end(`${req.headers['content-type']}\n${Buffer.concat(chunks)}`));
    });
    const port = await listen(echo, '127.0.0.1');
    const loopback = createOutboundGuard({ allowPrivate: ['127.0.0.1/32'] });
    const form = new FormData();
    form.append('model', 'whisper-1');
    const res = await loopback.fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: form });
    const text = await res.text();
    expect(text).toMatch(/^multipart\/form-data; boundary=/);
    expect(text).toContain('name="model"\r\n\r\nwhisper-1');
    await loopback.close();
    await new Promise((resolve) => echo.close(resolve));
  });
});
