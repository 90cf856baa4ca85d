import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Fastify from 'fastify';
import {
  DisconnectReason,
  initAuthCreds,
  proto,
  WAMessageStatus,
  type UserFacingSocketConfig,
  type WAMessage,
} from '@whiskeysockets/baileys';
import type { Db } from '../../db/client';
import type { ChannelEvent, ConnectionRow, InboundMessage } from '../driver';
import type { DatabaseAuthState } from './auth-state';
import { baileysLogger, createBaileysDriver, type BaileysSocket } from './baileys-driver';
import type { PhoneContact } from '../phone-book';
import type { MessageStore } from './message-store';

const CONTACT = '5511988887777@s.whatsapp.net';
const log = Fastify({ logger: false }).log;
// The bytes of the one stored file the send tests name.
const stored = Buffer.from('stored file');

// A stand-in for makeWASocket: `ev` is a plain EventEmitter the test fires Baileys events on.
const fakeSocket = () => {
  const ev = new EventEmitter();
  let sequence = 0;
  return {
    ev,
    user: undefined as BaileysSocket['user'],
    config: undefined as UserFacingSocketConfig | undefined,
    sendMessage: vi.fn(async (jid: string, content: object, options?: { messageId?: string }) => {
      sequence += 1;
      return proto.WebMessageInfo.fromObject({
        key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? `SENT${sequence}` },
        message: 'text' in content ? { conversation: String(content.text) } : {},
        messageTimestamp: 1_700_000_000,
      }) as WAMessage;
    }),
    readMessages: vi.fn(async () => undefined),
    sendPresenceUpdate: vi.fn(async () => undefined),
    onWhatsApp: vi.fn(async (...numbers: string[]) =>
      numbers.map((n) => ({ jid: `${n}@s.whatsapp.net`, exists: true })),
    ),
    requestPairingCode: vi.fn(async () => 'ABCD1234'),
    logout: vi.fn(async () => undefined),
    end: vi.fn(async () => undefined),
    updateMediaMessage: vi.fn(),
    signalRepository: { lidMapping: { getPNForLID: vi.fn(async () => null as string | null) } },
  };
};
type FakeSocket = ReturnType<typeof fakeSocket>;

const memoryStore = () => {
  const kept = new Map<string, WAMessage>();
  const store = {
    kept,
    remember: vi.fn(async (m: WAMessage) => void kept.set(m.key.id ?? '', m)),
    load: async (id: string) => kept.get(id),
    loadMany: async (ids: string[]) =>
      ids.map((id) => kept.get(id)).filter((m): m is WAMessage => !!m),
    getMessage: async () => undefined,
    prune: vi.fn(async () => 0),
    clear: vi.fn(async () => kept.clear()),
  } satisfies MessageStore & { kept: Map<string, WAMessage> };
  return store;
};

const setup = (
  options: {
    registered?: boolean;
    me?: { id: string; lid?: string };
    // What the channel layer does with an event before it is recorded as handed on.
    handing?: (event: ChannelEvent) => Promise<void>;
  } = {},
) => {
  const sockets: FakeSocket[] = [];
  const store = memoryStore();
  const phoneBook: PhoneContact[] = [];
  const auth = {
    clear: vi.fn(async () => undefined),
    saveCreds: vi.fn(async () => undefined),
  };
  const loadAuth = vi.fn(async (): Promise<DatabaseAuthState> => {
    const creds = initAuthCreds();
    creds.registered = !!options.registered;
    creds.me = options.me;
    return {
      state: { creds, keys: { get: async () => ({}), set: async () => undefined } },
      saveCreds: auth.saveCreds,
      clear: auth.clear,
    };
  });
  const driver = createBaileysDriver({
    makeSocket: (config) => {
      const socket = fakeSocket();
      socket.config = config;
      sockets.push(socket);
      return socket as unknown as BaileysSocket;
    },
    authState: loadAuth,
    messageStore: () => store,
    phoneBook: async (_db, _connection, contacts) => void phoneBook.push(...contacts),
    // No jitter: the backoff is exactly 1 s, 2 s, 4 s…
    random: () => 0.5,
  });
  const events: ChannelEvent[] = [];
  const session = driver.createSession({
    connection: { id: 7, companyId: 3 } as ConnectionRow,
    fetch,
    db: {} as Db,
    log,
    emit: async (event) => {
      await options.handing?.(event);
      events.push(event);
    },
    readMedia: async (storedName) => (storedName === 'f.bin' ? stored : undefined),
  });
  const current = () => sockets[sockets.length - 1];
  const fire = async (name: string, payload: unknown) => {
    current().ev.emit(name, payload);
    await drained();
  };
  const close = (statusCode: number) =>
    fire('connection.update', {
      connection: 'close',
      lastDisconnect: {
        error: Object.assign(new Error('closed'), { output: { statusCode } }),
        date: new Date(),
      },
    });
  const statuses = () => events.filter((e) => e.type === 'status').map((e) => e.status);
  return {
    driver,
    session,
    sockets,
    current,
    events,
    statuses,
    fire,
    close,
    store,
    auth,
    phoneBook,
  };
};

// Waits until the session's event queue has run dry. Every fake here answers with a resolved
// promise and the timers are fake, so handling an event only ever waits on microtasks: when the next
// macrotask (setImmediate, left real) runs, every event fired before has been handled, however slow
// the machine. (A timer the session set only runs when the test advances the fake clock.)
const drained = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('baileysLogger', () => {
  const appLog = (level: string) => Fastify({ logger: { level, stream: new PassThrough() } }).log;

  it('lets Baileys log warnings and errors only', () => {
    expect(baileysLogger(appLog('info')).level).toBe('warn');
    expect(baileysLogger(appLog('debug')).level).toBe('warn');
  });

  it('stays as quiet as the app when the app is quieter', () => {
    expect(baileysLogger(appLog('error')).level).toBe('error');
    expect(baileysLogger(appLog('silent')).level).toBe('silent');
  });
});

describe('baileys driver: connection', () => {
  it('opens one socket with the stored auth and the quiet options', async () => {
    const t = setup();
    expect(t.driver).toMatchObject({ provider: 'beta', pairs: true });
    await t.session.start();
    await drained();
    expect(t.sockets).toHaveLength(1);
    expect(t.current().config).toMatchObject({
      browser: ['Atendi', 'Chrome', '1.0.0'],
      markOnlineOnConnect: false,
      syncFullHistory: false,
    });
    expect(t.statuses()).toEqual(['OPENING']);
  });

  it('shows each QR, then reports CONNECTED with the own number', async () => {
    const t = setup();
    await t.session.start();
    await t.fire('connection.update', { qr: '2@first' });
    await t.fire('connection.update', { qr: '2@second' });
    expect(t.events).toEqual([
      { type: 'status', status: 'OPENING' },
      { type: 'qr', qr: '2@first' },
      { type: 'status', status: 'qrcode' },
      { type: 'qr', qr: '2@second' },
      { type: 'status', status: 'qrcode' },
    ]);
    t.events.length = 0;
    t.current().user = { id: '551188887777:12@s.whatsapp.net', lid: '123@lid' };
    await t.fire('connection.update', { connection: 'open' });
    expect(t.events).toEqual([
      { type: 'qr', qr: '' },
      { type: 'status', status: 'CONNECTED', number: '5511988887777' },
    ]);
    expect(t.store.prune).toHaveBeenCalled();
  });

  it('reports the number of a resumed pairing from its live credentials', async () => {
    const t = setup({
      registered: true,
      me: { id: '5521977776666:3@s.whatsapp.net', lid: '55@lid' },
    });
    await t.session.start();
    await t.fire('connection.update', { connection: 'open' });
    expect(t.events.at(-1)).toEqual({
      type: 'status',
      status: 'CONNECTED',
      number: '5521977776666',
    });
  });

  it('asks for a pairing code once the socket is ready, instead of showing QRs', async () => {
    const t = setup();
    await t.session.start({ phoneNumber: '+55 (11) 98888-7777' });
    await t.fire('connection.update', { qr: '2@first' });
    await t.fire('connection.update', { qr: '2@second' });
    expect(t.current().requestPairingCode).toHaveBeenCalledOnce();
    expect(t.current().requestPairingCode).toHaveBeenCalledWith('5511988887777');
    expect(t.events).toEqual([
      { type: 'status', status: 'OPENING' },
      { type: 'pairingCode', code: 'ABCD1234' },
      { type: 'status', status: 'PAIRING' },
    ]);
  });

  it('reconnects at once when WhatsApp asks for a restart after pairing', async () => {
    const t = setup();
    await t.session.start();
    await t.fire('connection.update', { qr: '2@qr' });
    await t.close(DisconnectReason.restartRequired);
    expect(t.sockets).toHaveLength(2);
    expect(t.statuses()).toEqual(['OPENING', 'qrcode', 'OPENING']);
    expect(t.auth.clear).not.toHaveBeenCalled();
  });

  it('forgets the pairing and stays down when logged out from the phone', async () => {
    const t = setup({ registered: true });
    await t.session.start();
    await t.fire('connection.update', { connection: 'open' });
    await t.close(DisconnectReason.loggedOut);
    expect(t.events.slice(-2)).toEqual([
      { type: 'qr', qr: '' },
      { type: 'status', status: 'DISCONNECTED', reason: 'loggedOut', cause: 'logged_out' },
    ]);
    expect(t.auth.clear).toHaveBeenCalledOnce();
    expect(t.store.clear).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(t.sockets).toHaveLength(1);
  });

  it('takes a replaced session back once, and stops at the second replacement', async () => {
    const t = setup({ registered: true });
    await t.session.start();
    await t.fire('connection.update', { connection: 'open' });
    await t.close(DisconnectReason.connectionReplaced);
    expect(t.statuses().at(-1)).toBe('TIMEOUT');
    await vi.advanceTimersByTimeAsync(1_000);
    await drained();
    expect(t.sockets).toHaveLength(2);
    await t.fire('connection.update', { connection: 'open' });
    await t.close(DisconnectReason.connectionReplaced);
    expect(t.statuses().at(-1)).toBe('DISCONNECTED');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(t.sockets).toHaveLength(2);
    expect(t.auth.clear).not.toHaveBeenCalled();
  });

  it('reports TIMEOUT when an open connection drops and reconnects after the backoff', async () => {
    const t = setup({ registered: true });
    await t.session.start();
    await t.fire('connection.update', { connection: 'open' });
    await t.close(DisconnectReason.connectionLost);
    expect(t.events.at(-1)).toEqual({
      type: 'status',
      status: 'TIMEOUT',
      reason: 'timedOut',
      cause: 'network',
      retries: 1,
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(t.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await drained();
    expect(t.sockets).toHaveLength(2);
    expect(t.statuses().at(-1)).toBe('OPENING');

    // Still failing: the next wait doubles.
    await t.close(DisconnectReason.connectionClosed);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(t.sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await drained();
    expect(t.sockets).toHaveLength(3);
  });

  it('stops waiting when the QR codes ran out unscanned', async () => {
    const t = setup();
    await t.session.start();
    await t.fire('connection.update', { qr: '2@qr' });
    await t.close(DisconnectReason.timedOut);
    expect(t.events.slice(-2)).toEqual([
      { type: 'qr', qr: '' },
      { type: 'status', status: 'DISCONNECTED', reason: 'qrTimeout', cause: 'qr_timeout' },
    ]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(t.sockets).toHaveLength(1);
  });

  it('stop() ends the socket, keeps the pairing and cancels a pending reconnect', async () => {
    const t = setup({ registered: true });
    await t.session.start();
    await t.fire('connection.update', { connection: 'open' });
    await t.close(DisconnectReason.connectionClosed);
    await t.session.start();
    await t.fire('connection.update', { connection: 'open' });
    const socket = t.current();
    await t.session.stop();
    expect(socket.end).toHaveBeenCalled();
    expect(socket.logout).not.toHaveBeenCalled();
    expect(t.auth.clear).not.toHaveBeenCalled();
    const before = t.events.length;
    // What the ended socket still emits is ignored, and no timer reconnects it.
    socket.ev.emit('connection.update', { connection: 'close' });
    await drained();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(t.events).toHaveLength(before);
    expect(t.sockets).toHaveLength(2);
  });

  it('logout() unlinks the device and forgets the auth state and kept messages', async () => {
    const t = setup({ registered: true });
    await t.session.start();
    await t.fire('connection.update', { connection: 'open' });
    const socket = t.current();
    await t.session.logout();
    expect(socket.logout).toHaveBeenCalledOnce();
    expect(t.auth.clear).toHaveBeenCalledOnce();
    expect(t.store.clear).toHaveBeenCalledOnce();
    await expect(t.session.sendMessage({ to: '5511988887777', body: 'x' })).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
  });

  it('logout() of a session never started still forgets the stored pairing', async () => {
    const t = setup({ registered: true });
    await t.session.logout();
    expect(t.auth.clear).toHaveBeenCalledOnce();
    expect(t.sockets).toHaveLength(0);
  });
});

describe('baileys driver: events', () => {
  const connected = async () => {
    const t = setup({ registered: true });
    await t.session.start();
    await t.fire('connection.update', { connection: 'open' });
    t.events.length = 0;
    return t;
  };

  const incoming = (id: string, message: proto.IMessage, key: Record<string, unknown> = {}) => {
    const msg = proto.WebMessageInfo.fromObject({
      key: { remoteJid: CONTACT, fromMe: false, id, ...key },
      message,
      messageTimestamp: 1_700_000_000,
      pushName: 'Ana',
    }) as WAMessage;
    msg.key = { ...msg.key, ...key };
    return msg;
  };

  it('reports an upserted message as a mapped message and keeps it for quoting', async () => {
    const t = await connected();
    const msg = incoming('IN1', { conversation: 'Hola' });
    await t.fire('messages.upsert', { type: 'notify', messages: [msg] });
    expect(t.events).toEqual([
      {
        type: 'message',
        message: expect.objectContaining({
          providerId: 'IN1',
          from: '5511988887777',
          body: 'Hola',
          contactName: 'Ana',
          fromMe: false,
        }) as InboundMessage,
      },
    ]);
    expect(t.store.kept.has('IN1')).toBe(true);
  });

  it("hands each chat's messages on in order, other chats' meanwhile, without holding up the next events", async () => {
    // The channel layer stores slowly: a message is handed on once the test releases it.
    const waiting = new Map<string, () => void>();
    const started: string[] = [];
    const t = setup({
      registered: true,
      handing: (event) =>
        event.type !== 'message'
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              started.push(event.message.providerId);
              waiting.set(event.message.providerId, resolve);
            }),
    });
    await t.session.start();
    await t.fire('connection.update', { connection: 'open' });
    const other = '5511977776666@s.whatsapp.net';
    await t.fire('messages.upsert', {
      type: 'notify',
      messages: [incoming('A1', { conversation: '1' })],
    });
    await t.fire('messages.upsert', {
      type: 'notify',
      messages: [
        incoming('A2', { conversation: '2' }),
        incoming('B1', { conversation: 'b' }, { remoteJid: other }),
      ],
    });
    // B1 did not wait for A1; A2 does.
    expect(started).toEqual(['A1', 'B1']);
    waiting.get('A1')!();
    await drained();
    expect(started).toEqual(['A1', 'B1', 'A2']);
    waiting.get('B1')!();
    waiting.get('A2')!();
    await drained();
    expect(t.events.flatMap((e) => (e.type === 'message' ? [e.message.providerId] : []))).toEqual([
      'A1',
      'B1',
      'A2',
    ]);
  });

  it('reports a reaction on the message it points at, not as a message', async () => {
    const t = await connected();
    await t.fire('messages.upsert', {
      type: 'notify',
      messages: [
        incoming('R1', {
          reactionMessage: {
            key: { remoteJid: CONTACT, fromMe: true, id: 'SENT1' },
            text: '😂',
            senderTimestampMs: 1_700_000_000_500,
          },
        }),
      ],
    });
    expect(t.events).toEqual([
      {
        type: 'reaction',
        providerId: 'SENT1',
        from: '5511988887777',
        fromMe: false,
        emoji: '😂',
        timestamp: new Date(1_700_000_000_500),
      },
    ]);
    expect(t.store.kept.has('R1')).toBe(false);
  });

  it('also reports messages sent from the phone (append upserts)', async () => {
    const t = await connected();
    await t.fire('messages.upsert', {
      type: 'append',
      messages: [incoming('OUT1', { conversation: 'desde el celular' }, { fromMe: true })],
    });
    expect(t.events).toMatchObject([{ type: 'message', message: { fromMe: true } }]);
  });

  it('resolves a LID-only sender through the LID mapping store', async () => {
    const t = await connected();
    t.current().signalRepository.lidMapping.getPNForLID.mockResolvedValue(CONTACT);
    await t.fire('messages.upsert', {
      type: 'notify',
      messages: [incoming('IN2', { conversation: 'hi' }, { remoteJid: '999@lid' })],
    });
    expect(t.current().signalRepository.lidMapping.getPNForLID).toHaveBeenCalledWith('999@lid');
    expect(t.events).toMatchObject([
      { type: 'message', message: { from: '5511988887777', lid: '999@lid' } },
    ]);
  });

  it('reports a revoke once, though Baileys reports it as an upsert and as an update', async () => {
    const t = await connected();
    const revoke = incoming('P1', {
      protocolMessage: {
        key: { remoteJid: CONTACT, id: 'IN1' },
        type: proto.Message.ProtocolMessage.Type.REVOKE,
      },
    });
    await t.fire('messages.upsert', { type: 'notify', messages: [revoke] });
    await t.fire('messages.update', [
      {
        key: { remoteJid: CONTACT, id: 'IN1' },
        update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE },
      },
    ]);
    expect(t.events).toEqual([{ type: 'revoke', providerId: 'IN1' }]);
  });

  it('keeps the named phone contacts the phone shares, by number', async () => {
    const t = await connected();
    await t.fire('messaging-history.set', {
      chats: [],
      messages: [],
      contacts: [
        { id: CONTACT, name: 'Ana Agenda', notify: 'Ana' },
        { id: '1234567@lid', phoneNumber: '5511977776666@s.whatsapp.net', notify: 'Beto' },
        { id: '120363000000000001@g.us', name: 'Grupo' },
        { id: '7654321@lid', name: 'Solo LID' },
        { id: '5511955554444@s.whatsapp.net' },
      ],
    });
    await t.fire('contacts.upsert', [{ id: '5511933332222@s.whatsapp.net', verifiedName: 'Loja' }]);
    expect(t.phoneBook).toEqual([
      { number: '5511988887777', name: 'Ana Agenda' },
      { number: '5511977776666', name: 'Beto' },
      { number: '5511933332222', name: 'Loja' },
    ]);
  });

  it('reports acks, receipts and typing', async () => {
    const t = await connected();
    await t.fire('messages.update', [
      {
        key: { remoteJid: CONTACT, id: 'SENT1', fromMe: true },
        update: { status: WAMessageStatus.READ },
      },
    ]);
    await t.fire('message-receipt.update', [
      {
        key: { remoteJid: '1203@g.us', id: 'SENT2', fromMe: true },
        receipt: { userJid: CONTACT, receiptTimestamp: 1 },
      },
    ]);
    await t.fire('presence.update', {
      id: CONTACT,
      presences: { [CONTACT]: { lastKnownPresence: 'composing' } },
    });
    expect(t.events).toEqual([
      { type: 'ack', providerId: 'SENT1', ack: 4 },
      { type: 'ack', providerId: 'SENT2', ack: 3 },
      { type: 'typing', from: '5511988887777', typing: true },
    ]);
  });
});

describe('baileys driver: sending', () => {
  const connected = async () => {
    const t = setup({ registered: true });
    await t.session.start();
    await t.fire('connection.update', { connection: 'open' });
    return t;
  };

  it('refuses to send before the connection is open', async () => {
    const t = setup();
    await expect(t.session.sendMessage({ to: '5511988887777', body: 'x' })).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
    await t.session.start();
    await expect(
      t.session.markRead({ from: '5511988887777', providerIds: ['A'] }),
    ).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
  });

  it('sends text to the Brazilian number form that exists, and remembers which', async () => {
    const t = await connected();
    const socket = t.current();
    socket.onWhatsApp.mockResolvedValue([
      { jid: '5511988887777@s.whatsapp.net', exists: false },
      { jid: '551188887777@s.whatsapp.net', exists: true },
    ]);
    const result = await t.session.sendMessage({ to: '5511988887777', body: 'Olá' });
    expect(socket.onWhatsApp).toHaveBeenCalledWith('5511988887777', '551188887777');
    expect(socket.sendMessage).toHaveBeenCalledWith(
      '551188887777@s.whatsapp.net',
      { text: 'Olá' },
      {},
    );
    expect(result).toEqual({ providerId: 'SENT1', timestamp: new Date(1_700_000_000_000) });
    expect(t.store.kept.has('SENT1')).toBe(true);

    await t.session.sendMessage({ to: '5511988887777', body: 'de novo' });
    expect(socket.onWhatsApp).toHaveBeenCalledOnce();
    expect(socket.sendMessage).toHaveBeenLastCalledWith(
      '551188887777@s.whatsapp.net',
      { text: 'de novo' },
      {},
    );
  });

  it("sends to a Mexican number WhatsApp still holds with the old mobile '1'", async () => {
    const t = await connected();
    const socket = t.current();
    socket.onWhatsApp.mockResolvedValue([
      { jid: '525512345678@s.whatsapp.net', exists: false },
      { jid: '5215512345678@s.whatsapp.net', exists: true },
    ]);
    await t.session.sendMessage({ to: '525512345678', body: 'Hola' });
    expect(socket.onWhatsApp).toHaveBeenCalledWith('525512345678', '5215512345678');
    expect(socket.sendMessage).toHaveBeenCalledWith(
      '5215512345678@s.whatsapp.net',
      { text: 'Hola' },
      {},
    );
  });

  it('marks a forwarded message as WhatsApp shows it', async () => {
    const t = await connected();
    await t.session.sendMessage({
      to: '1203630@g.us',
      body: 'Mira',
      isGroup: true,
      forwarded: true,
    });
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(
      '1203630@g.us',
      { text: 'Mira', contextInfo: { isForwarded: true, forwardingScore: 1 } },
      {},
    );
  });

  it('reacts to the kept message’s exact key, or to the key it can build; empty takes it back', async () => {
    const t = await connected();
    const kept = proto.WebMessageInfo.fromObject({
      key: { remoteJid: '551188887777@s.whatsapp.net', fromMe: false, id: 'KEPT1' },
      message: { conversation: 'hola' },
      messageTimestamp: 1_700_000_000,
    }) as WAMessage;
    t.store.kept.set('KEPT1', kept);
    await t.session.react({ to: '5511988887777', providerId: 'KEPT1', fromMe: false, emoji: '👍' });
    expect(t.current().sendMessage).toHaveBeenLastCalledWith('551188887777@s.whatsapp.net', {
      react: { text: '👍', key: expect.objectContaining({ id: 'KEPT1', fromMe: false }) },
    });
    await t.session.react({
      to: '1203630@g.us',
      isGroup: true,
      providerId: 'GONE',
      fromMe: false,
      participant: '5511977776666',
      emoji: '',
    });
    expect(t.current().sendMessage).toHaveBeenLastCalledWith('1203630@g.us', {
      react: {
        text: '',
        key: {
          remoteJid: '1203630@g.us',
          id: 'GONE',
          fromMe: false,
          participant: '5511977776666@s.whatsapp.net',
        },
      },
    });
    t.current().sendMessage.mockRejectedValueOnce(new Error('not-acceptable'));
    await expect(
      t.session.react({ to: '1203630@g.us', providerId: 'GONE', fromMe: true, emoji: '👍' }),
    ).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
  });

  it('shows the contact "typing…" and stops it', async () => {
    const t = await connected();
    await t.session.sendPresence({ to: '5511988887777', typing: true });
    await t.session.sendPresence({ to: '5511988887777', typing: false });
    expect(t.current().sendPresenceUpdate.mock.calls).toEqual([
      ['composing', CONTACT],
      ['paused', CONTACT],
    ]);
  });

  it('gives a repeated send the same WhatsApp message id, so WhatsApp keeps one copy', async () => {
    const t = await connected();
    const send = (idempotencyKey: string) =>
      t.session.sendMessage({ to: '5511988887777', body: 'Una vez', idempotencyKey });
    const first = await send('message:41');
    const repeat = await send('message:41');
    const other = await send('message:42');
    expect(first.providerId).toMatch(/^3EB0[0-9A-F]{18}$/);
    expect(repeat.providerId).toBe(first.providerId);
    expect(other.providerId).not.toBe(first.providerId);
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(
      CONTACT,
      { text: 'Una vez' },
      { messageId: other.providerId },
    );
  });

  it('rejects a number that is not on WhatsApp', async () => {
    const t = await connected();
    t.current().onWhatsApp.mockResolvedValue([]);
    await expect(t.session.sendMessage({ to: '5511977776666', body: 'x' })).rejects.toMatchObject({
      code: 'ERR_WAPP_INVALID_CONTACT',
    });
    expect(t.current().sendMessage).not.toHaveBeenCalled();
  });

  it('checks a number: found in either Brazilian form, missing, or the lookup failed', async () => {
    const t = await connected();
    const socket = t.current();
    socket.onWhatsApp.mockResolvedValueOnce([{ jid: '551188887777@s.whatsapp.net', exists: true }]);
    await expect(t.session.checkNumber!('+55 (11) 98888-7777')).resolves.toBeUndefined();
    expect(socket.onWhatsApp).toHaveBeenLastCalledWith('5511988887777', '551188887777');

    socket.onWhatsApp.mockResolvedValueOnce([
      { jid: '5491155554444@s.whatsapp.net', exists: false },
    ]);
    await expect(t.session.checkNumber!('5491155554444')).rejects.toMatchObject({
      code: 'ERR_WAPP_INVALID_CONTACT',
    });
    // A send would go ahead to the canonical number; a check tells the user it could not tell.
    socket.onWhatsApp.mockRejectedValueOnce(new Error('timed out'));
    await expect(t.session.checkNumber!('5491155553333')).rejects.toMatchObject({
      code: 'ERR_WAPP_CHECK_CONTACT',
    });
    socket.onWhatsApp.mockResolvedValueOnce(undefined as never);
    await expect(t.session.checkNumber!('5491155552222')).rejects.toMatchObject({
      code: 'ERR_WAPP_CHECK_CONTACT',
    });
  });

  it('sends to groups without a number lookup', async () => {
    const t = await connected();
    await t.session.sendMessage({ to: '1203630@g.us', body: 'Hola grupo', isGroup: true });
    expect(t.current().onWhatsApp).not.toHaveBeenCalled();
    expect(t.current().sendMessage).toHaveBeenCalledWith(
      '1203630@g.us',
      { text: 'Hola grupo' },
      {},
    );
  });

  it('sends stored files with their caption, name and type', async () => {
    const t = await connected();
    const send = (mediaType: 'image' | 'audio' | 'application', mimetype: string, body = 'Leia') =>
      t.session.sendMessage({
        to: '14155552671',
        body,
        media: { storedName: 'f.bin', fileName: 'f.bin', mimetype, mediaType },
      });
    await send('image', 'image/png');
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(
      '14155552671@s.whatsapp.net',
      { image: stored, caption: 'Leia', mimetype: 'image/png' },
      {},
    );
    await send('audio', 'audio/ogg; codecs=opus', '');
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(
      '14155552671@s.whatsapp.net',
      { audio: stored, mimetype: 'audio/ogg; codecs=opus', ptt: true },
      {},
    );
    await send('application', 'application/pdf');
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(
      '14155552671@s.whatsapp.net',
      {
        document: stored,
        mimetype: 'application/pdf',
        fileName: 'f.bin',
        caption: 'Leia',
      },
      {},
    );
  });

  it('quotes a kept message, or a minimal stand-in when it is not kept', async () => {
    const t = await connected();
    const original = proto.WebMessageInfo.fromObject({
      key: { remoteJid: CONTACT, fromMe: false, id: 'IN9' },
      message: { conversation: 'Pregunta' },
    }) as WAMessage;
    t.store.kept.set('IN9', original);
    await t.session.sendMessage({ to: '5511988887777', body: 'Respuesta', quotedId: 'IN9' });
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(
      CONTACT,
      { text: 'Respuesta' },
      {
        quoted: original,
      },
    );
    await t.session.sendMessage({ to: '5511988887777', body: 'Otra', quotedId: 'GONE' });
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(
      CONTACT,
      { text: 'Otra' },
      {
        quoted: {
          key: { remoteJid: CONTACT, id: 'GONE', fromMe: false },
          message: { conversation: '' },
        },
      },
    );
  });

  it('deletes with the kept key, marks read with the kept keys, and wraps send failures', async () => {
    const t = await connected();
    const kept = { remoteJid: '999@lid', fromMe: true, id: 'SENT7' };
    t.store.kept.set('SENT7', { key: kept } as WAMessage);
    await t.session.deleteMessage({ to: '5511988887777', providerId: 'SENT7', fromMe: true });
    expect(t.current().sendMessage).toHaveBeenLastCalledWith('999@lid', { delete: kept });

    t.store.kept.set('IN3', {
      key: { remoteJid: '999@lid', id: 'IN3', fromMe: false },
    } as WAMessage);
    await t.session.markRead({ from: '5511988887777', providerIds: ['IN3', 'IN4'] });
    expect(t.current().readMessages).toHaveBeenCalledWith([
      { remoteJid: '999@lid', id: 'IN3', fromMe: false },
      { remoteJid: CONTACT, id: 'IN4', fromMe: false },
    ]);

    t.current().sendMessage.mockRejectedValueOnce(new Error('socket hang up'));
    await expect(t.session.sendMessage({ to: '5511988887777', body: 'x' })).rejects.toMatchObject({
      code: 'ERR_SENDING_WAPP_MSG',
      message: 'socket hang up',
    });
  });

  it('refuses to download media of a message without its WhatsApp payload', async () => {
    const t = await connected();
    await expect(
      t.session.downloadMedia({
        providerId: 'X',
        from: '5511988887777',
        body: '',
        mediaType: 'image',
        isGroup: false,
        fromMe: false,
        timestamp: new Date(),
      }),
    ).rejects.toMatchObject({ code: 'ERR_WAPP_DOWNLOAD_MEDIA' });
  });
});
