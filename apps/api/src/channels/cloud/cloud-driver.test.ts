import { createOutboundGuard } from '../../platform/outbound';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GRAPH_TOKEN, startFakeGraph, webhookBody, type FakeGraph } from '../../../test/fake-graph';
import type { Db } from '../../db/client';
import { ChannelError, type ChannelEvent, type ConnectionRow } from '../driver';
import { cloudDriver } from './cloud-driver';
import { createGraphClient } from './graph';
import { mapWebhook } from './payloads';
import { isPermanentSendFailure } from '../../modules/messages/outbox';

const PHONE_ID = '110000000000001';

let graph: FakeGraph;
let dir: string;
let logged: string[];

// Every log line, serialised, so a test can prove the token never reaches one.
const log = new Proxy({} as FastifyBaseLogger, {
  get: (_target, name) =>
    name === 'child'
      ? () => log
      : (...args: unknown[]) =>
          void logged.push(
            JSON.stringify(args, (_k, v: unknown) =>
              v instanceof Error ? { message: v.message, stack: v.stack } : v,
            ),
          ),
});

// The tests' Graph stand-in listens on loopback, which only an operator's setting lets through.
const loopbackAllowed = createOutboundGuard({ allowPrivate: ['127.0.0.0/8'] });

const sessionFor = (overrides: Partial<ConnectionRow> = {}, guard = loopbackAllowed) => {
  const events: ChannelEvent[] = [];
  const connection = {
    id: 1,
    companyId: 1,
    provider: 'cloud',
    cloudPhoneNumberId: PHONE_ID,
    cloudAccessToken: GRAPH_TOKEN,
    cloudAppSecret: 'secret',
    cloudVerifyToken: 'verify',
    cloudApiBaseUrl: graph.url,
    ...overrides,
  } as ConnectionRow;
  const session = cloudDriver.createSession({
    connection,
    fetch: guard.fetch,
    db: {} as Db,
    log,
    emit: async (event) => void events.push(event),
    readMedia: (storedName) => readFile(path.join(dir, storedName)).catch(() => undefined),
  });
  return { session, events };
};

const sent = () =>
  graph.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages'));

beforeAll(async () => {
  graph = await startFakeGraph();
  graph.addPhoneNumber(PHONE_ID, '+1 555-010-7788', 'Acme Support');
  dir = mkdtempSync(path.join(tmpdir(), 'cloud-driver-'));
});
afterAll(async () => {
  await graph.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  graph.requests.length = 0;
  logged = [];
});

describe('cloud driver: start', () => {
  it('checks the credentials and reports CONNECTED with the normalised number', async () => {
    const { session, events } = sessionFor();
    await session.start();
    expect(events).toEqual([{ type: 'status', status: 'CONNECTED', number: '15550107788' }]);
    const [lookup] = graph.requests;
    expect(lookup.method).toBe('GET');
    expect(lookup.path).toBe(`/v21.0/${PHONE_ID}`);
    expect(lookup.query.get('fields')).toBe(
      'display_phone_number,verified_name,quality_rating,messaging_limit_tier',
    );
    expect(lookup.headers.authorization).toBe(`Bearer ${GRAPH_TOKEN}`);
    expect(cloudDriver).toMatchObject({ provider: 'cloud', pairs: false });
  });

  it('reports DISCONNECTED with the reason for a bad token, without throwing or logging it', async () => {
    const secretToken = 'EAAG-very-secret-token';
    const { session, events } = sessionFor({ cloudAccessToken: secretToken });
    await expect(session.start()).resolves.toBeUndefined();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'status',
      status: 'DISCONNECTED',
      cause: 'unauthorized',
    });
    // Meta says why in words; from a base URL the company named (this stand-in), only its code.
    expect((events[0] as { reason: string }).reason).toMatch(/\(code 190\) \[HTTP 401\]/);
    expect(graph.requests[0].headers.authorization).toBe(`Bearer ${secretToken}`);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).not.toContain(secretToken);
    expect(JSON.stringify(events)).not.toContain(secretToken);
  });

  it('reports DISCONNECTED for missing credentials and for an unknown phone number id', async () => {
    const missing = sessionFor({ cloudAccessToken: null });
    await missing.session.start();
    expect(missing.events).toEqual([
      {
        type: 'status',
        status: 'DISCONNECTED',
        reason: expect.stringMatching(/phone number id and an access token/),
        cause: 'not_configured',
      },
    ]);
    expect(graph.requests).toHaveLength(0);

    const unknown = sessionFor({ cloudPhoneNumberId: '999' });
    await unknown.session.start();
    expect(unknown.events[0]).toMatchObject({
      status: 'DISCONNECTED',
      reason: expect.stringMatching(/\(code 100\)/),
      cause: 'not_configured',
    });
  });

  it('reports DISCONNECTED when the Graph API is unreachable', async () => {
    const { session, events } = sessionFor({ cloudApiBaseUrl: 'http://127.0.0.1:1' });
    await session.start();
    expect(events[0]).toMatchObject({
      status: 'DISCONNECTED',
      reason: expect.stringMatching(/unreachable/),
      cause: 'network',
    });
  });
});

describe('cloud driver: sending', () => {
  it('sends a text without link previews and answers the Graph message id', async () => {
    const { session } = sessionFor();
    const result = await session.sendMessage({ to: '5511988887777', body: 'Hello *there*' });
    expect(result.providerId).toMatch(/^wamid\.\d+$/);
    expect(result.timestamp).toBeInstanceOf(Date);
    const [request] = sent();
    expect(request.path).toBe(`/v21.0/${PHONE_ID}/messages`);
    expect(request.headers.authorization).toBe(`Bearer ${GRAPH_TOKEN}`);
    expect(request.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '5511988887777',
      type: 'text',
      text: { body: 'Hello *there*', preview_url: false },
    });
  });

  it('sends a quoted reply with the quoted message id as context', async () => {
    const { session } = sessionFor();
    await session.sendMessage({ to: '15551234', body: 'Yes', quotedId: 'wamid.ORIGINAL' });
    expect(sent()[0].json).toMatchObject({ context: { message_id: 'wamid.ORIGINAL' } });
  });

  it('reacts, and takes a reaction back, as Meta documents (a reaction message)', async () => {
    const { session } = sessionFor();
    await session.react({ to: '15551234', providerId: 'wamid.THEIRS', fromMe: false, emoji: '👍' });
    await session.react({ to: '15551234', providerId: 'wamid.THEIRS', fromMe: false, emoji: '' });
    expect(sent().map((request) => request.json)).toEqual(
      ['👍', ''].map((emoji) => ({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '15551234',
        type: 'reaction',
        reaction: { message_id: 'wamid.THEIRS', emoji },
      })),
    );
  });

  it('shows "typing…" on the contact’s last message, as Meta documents; nothing to stop it', async () => {
    const { session } = sessionFor();
    await session.sendPresence({ to: '15551234', typing: true, lastInboundId: 'wamid.LAST' });
    await session.sendPresence({ to: '15551234', typing: false, lastInboundId: 'wamid.LAST' });
    await session.sendPresence({ to: '15551234', typing: true });
    expect(sent().map((request) => request.json)).toEqual([
      {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: 'wamid.LAST',
        typing_indicator: { type: 'text' },
      },
    ]);
  });

  it('a forwarded message goes as a plain one: the Cloud API has no forwarding mark', async () => {
    const { session } = sessionFor();
    await session.sendMessage({ to: '15551234', body: 'Reenviado', forwarded: true });
    expect(sent()[0].json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '15551234',
      type: 'text',
      text: { body: 'Reenviado', preview_url: false },
    });
  });

  it('uploads a file, then sends it by media id with caption and file name', async () => {
    const { session } = sessionFor();
    const pdf = path.join(dir, 'stored.pdf');
    writeFileSync(pdf, Buffer.from('%PDF-1.4 fake'));
    await session.sendMessage({
      to: '15551234',
      body: 'Your invoice',
      media: {
        storedName: path.basename(pdf),
        fileName: 'invoice.pdf',
        mimetype: 'application/pdf',
        mediaType: 'application',
      },
    });
    const upload = graph.requests.find((r) => r.path === `/v21.0/${PHONE_ID}/media`)!;
    expect(upload.method).toBe('POST');
    expect(upload.form?.fields).toEqual({ messaging_product: 'whatsapp', type: 'application/pdf' });
    expect(upload.form?.file).toMatchObject({ name: 'invoice.pdf', type: 'application/pdf' });
    expect(upload.form?.file?.data.toString()).toBe('%PDF-1.4 fake');
    const [mediaId] = [...graph.uploads.keys()].slice(-1);
    expect(sent()[0].json).toMatchObject({
      to: '15551234',
      type: 'document',
      document: { id: mediaId, caption: 'Your invoice', filename: 'invoice.pdf' },
    });

    const image = path.join(dir, 'photo.jpg');
    writeFileSync(image, Buffer.from([0xff, 0xd8, 0xff]));
    await session.sendMessage({
      to: '15551234',
      body: 'Look',
      media: {
        storedName: path.basename(image),
        fileName: 'photo.jpg',
        mimetype: 'image/jpeg',
        mediaType: 'image',
      },
    });
    expect(sent()[1].json).toMatchObject({ type: 'image', image: { caption: 'Look' } });

    const audio = path.join(dir, 'note.ogg');
    writeFileSync(audio, Buffer.from('OggS'));
    await session.sendMessage({
      to: '15551234',
      body: 'note.ogg',
      media: {
        storedName: path.basename(audio),
        fileName: 'note.ogg',
        mimetype: 'audio/ogg; codecs=opus',
        mediaType: 'audio',
      },
    });
    const lastUpload = graph.requests.filter((r) => r.path.endsWith('/media')).at(-1)!;
    expect(lastUpload.form?.fields.type).toBe('audio/ogg');
    // WhatsApp shows no caption under audio.
    expect((sent()[2].json as { audio: Record<string, unknown> }).audio).toEqual({
      id: expect.any(String),
    });
  });

  it('turns Graph errors into channel errors with the matching code', async () => {
    const { session } = sessionFor();
    graph.failNext(
      { status: 400, code: 131030, message: 'Recipient phone number not in allowed list' },
      '/messages',
    );
    const failed = await session.sendMessage({ to: '1555', body: 'x' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ChannelError);
    expect(failed).toMatchObject({
      code: 'ERR_SENDING_WAPP_MSG',
      message: expect.stringMatching(/\(code 131030\) \[HTTP 400\]/),
    });

    graph.failNext('auth');
    await expect(session.sendMessage({ to: '1555', body: 'x' })).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
    // Code 190 means a dead token even when the status is not 401.
    graph.failNext({ status: 400, code: 190, message: 'Invalid OAuth access token' });
    await expect(session.sendMessage({ to: '1555', body: 'x' })).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });

    graph.failNext({ status: 500, code: 1, message: 'An unknown error occurred' }, '/media');
    const file = path.join(dir, 'a.png');
    writeFileSync(file, Buffer.from('png'));
    await expect(
      session.sendMessage({
        to: '1555',
        body: '',
        media: {
          storedName: path.basename(file),
          fileName: 'a.png',
          mimetype: 'image/png',
          mediaType: 'image',
        },
      }),
    ).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
  });

  it('refuses groups, deletes and missing files with channel errors', async () => {
    const { session } = sessionFor();
    await expect(
      session.sendMessage({ to: '1203630@g.us', body: 'x', isGroup: true }),
    ).rejects.toMatchObject({ code: 'ERR_WAPP_INVALID_CONTACT' });
    await expect(
      session.deleteMessage({ to: '1555', providerId: 'wamid.1', fromMe: true }),
    ).rejects.toMatchObject({
      code: 'ERR_DELETE_WAPP_MSG',
      message: 'The Cloud API cannot delete sent messages',
    });
    await expect(
      session.sendMessage({
        to: '1555',
        body: '',
        media: {
          storedName: 'gone.png',
          fileName: 'gone.png',
          mimetype: 'image/png',
          mediaType: 'image',
        },
      }),
    ).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
    expect(sent()).toHaveLength(0);
  });

  it('marks the latest message of a chat as read', async () => {
    const { session } = sessionFor();
    await session.markRead({ from: '1555', providerIds: ['wamid.1', 'wamid.2', 'wamid.3'] });
    await session.markRead({ from: '1555', providerIds: [] });
    expect(sent().map((r) => r.json)).toEqual([
      { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.3' },
    ]);
  });
});

const imageMessage = (mediaId: string) => {
  const [group] = mapWebhook(
    webhookBody({
      phoneNumberId: PHONE_ID,
      value: {
        messages: [
          {
            from: '15551234',
            id: 'wamid.IMG',
            timestamp: '1749416383',
            type: 'image',
            image: { id: mediaId, mime_type: 'image/jpeg', sha256: 'x', caption: 'hi' },
          },
        ],
      },
    }),
  );
  return (group.events[0] as Extract<ChannelEvent, { type: 'message' }>).message;
};

describe('cloud driver: media download', () => {
  it('looks the media URL up, then downloads it with the token', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    graph.addMedia('1003383421387256', bytes, 'image/jpeg');
    const { session } = sessionFor();
    const file = await session.downloadMedia(imageMessage('1003383421387256'));
    expect(file.data.equals(bytes)).toBe(true);
    expect(file.mimetype).toBe('image/jpeg');
    expect(graph.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v21.0/1003383421387256',
      'GET /download/1003383421387256',
    ]);
    expect(graph.requests[1].headers.authorization).toBe(`Bearer ${GRAPH_TOKEN}`);
  });

  it('fails with ERR_WAPP_DOWNLOAD_MEDIA for unknown media or a failing download', async () => {
    const { session } = sessionFor();
    await expect(session.downloadMedia(imageMessage('404'))).rejects.toMatchObject({
      code: 'ERR_WAPP_DOWNLOAD_MEDIA',
    });
    graph.addMedia('m2', Buffer.from('x'), 'image/png');
    graph.failNext({ status: 404, code: 100, message: 'Media expired' }, '/download/');
    const failed = await session.downloadMedia(imageMessage('m2')).catch((e: unknown) => e);
    expect(failed).toMatchObject({
      code: 'ERR_WAPP_DOWNLOAD_MEDIA',
      message: expect.stringMatching(/\(code 100\) \[HTTP 404\]/),
    });
    // A server the company named (not Meta's) does not get its words passed on.
    expect((failed as Error).message).not.toMatch(/Media expired/);
    await expect(
      session.downloadMedia({ ...imageMessage('m2'), raw: { type: 'text' } }),
    ).rejects.toMatchObject({ code: 'ERR_WAPP_DOWNLOAD_MEDIA' });
  });
});

describe('cloud driver: a base URL on a private network', () => {
  it('is never called: start, sends and media downloads fail as channel errors', async () => {
    graph.addMedia('m-private', Buffer.from('secret'), 'image/png');
    const { session, events } = sessionFor({}, createOutboundGuard({ allowPrivate: false }));
    await session.start();
    expect(events.at(-1)).toMatchObject({ type: 'status', status: 'DISCONNECTED' });
    const refused = await session.sendMessage({ to: '1555', body: 'x' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'ERR_SENDING_WAPP_MSG',
      message: expect.stringMatching(/private or reserved network/),
    });
    // The outbox fails such a send at once instead of trying it again for minutes.
    expect(isPermanentSendFailure(refused)).toBe(true);
    await expect(session.downloadMedia(imageMessage('m-private'))).rejects.toMatchObject({
      code: 'ERR_WAPP_DOWNLOAD_MEDIA',
      message: expect.stringMatching(/private or reserved network/),
    });
    expect(graph.requests).toEqual([]);
  });
});

describe('graph client', () => {
  it('gives up after its timeout with a channel error', async () => {
    const client = createGraphClient({
      accessToken: GRAPH_TOKEN,
      phoneNumberId: PHONE_ID,
      baseUrl: graph.url,
      timeoutMs: 100,
    });
    graph.holdNext();
    const late = await client
      .sendMessage({ to: '1', type: 'text', text: { body: 'x' } })
      .catch((e: unknown) => e);
    expect(late).toMatchObject({
      code: 'ERR_SENDING_WAPP_MSG',
      message: expect.stringMatching(/did not answer within 0.1 s/),
    });
    // A server that was slow once may answer the next try.
    expect(isPermanentSendFailure(late)).toBe(false);
  });

  it('uses the default Graph URL and version unless the connection sets a base URL', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => Response.json({ display_phone_number: '+1 555' }));
    try {
      await createGraphClient({ accessToken: 't', phoneNumberId: PHONE_ID }).getPhoneNumber();
      await createGraphClient({
        accessToken: 't',
        phoneNumberId: PHONE_ID,
        baseUrl: 'http://graph.local/',
      }).getPhoneNumber();
      expect(fetchSpy.mock.calls.map(([url]) => String(url))).toEqual([
        `https://graph.facebook.com/v21.0/${PHONE_ID}?fields=display_phone_number,verified_name,quality_rating,messaging_limit_tier`,
        `http://graph.local/v21.0/${PHONE_ID}?fields=display_phone_number,verified_name,quality_rating,messaging_limit_tier`,
      ]);
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
