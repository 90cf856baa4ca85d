import { createHash } from 'node:crypto';
import {
  DisconnectReason,
  downloadMediaMessage,
  isLidUser,
  jidNormalizedUser,
  makeCacheableSignalKeyStore,
  makeWASocket,
  type AnyMessageContent,
  type BaileysEventMap,
  type CacheStore,
  type ConnectionState,
  type Contact,
  type SocketConfig,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
  type WASocket,
} from '@whiskeysockets/baileys';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import {
  ChannelError,
  type ChannelDriver,
  type ChannelEvent,
  type ChannelSession,
  type SendRequest,
  type SessionContext,
} from '../driver';
import { isGroupId, normalizeNumber, numberVariants, toJid } from '../numbers';
import { phoneContactOf, savePhoneContacts } from '../phone-book';
import { useDatabaseAuthState, type ConnectionIds, type DatabaseAuthState } from './auth-state';
import {
  backoffDelay,
  mapAck,
  mapConnectionUpdate,
  mapDisconnect,
  mapMessage,
  mapPresence,
  mapProtocol,
  mapReaction,
  toDate,
  unresolvedLids,
  type LidLookup,
} from './mapping';
import { createMessageStore, reviveWAMessage, type MessageStore } from './message-store';

// What the driver uses of a Baileys socket; tests hand in a fake with an EventEmitter as `ev`.
export type BaileysSocket = Pick<
  WASocket,
  | 'sendMessage'
  | 'readMessages'
  | 'sendPresenceUpdate'
  | 'onWhatsApp'
  | 'requestPairingCode'
  | 'logout'
  | 'end'
  | 'updateMediaMessage'
> & {
  ev: Pick<WASocket['ev'], 'on'>;
  user?: WASocket['user'];
  signalRepository?: {
    lidMapping: Pick<WASocket['signalRepository']['lidMapping'], 'getPNForLID'>;
  };
};

type BaileysDriverOptions = {
  makeSocket?: (config: UserFacingSocketConfig) => BaileysSocket;
  authState?: (db: Db, ids: ConnectionIds) => Promise<DatabaseAuthState>;
  messageStore?: (db: Db, ids: ConnectionIds) => MessageStore;
  // Keeps what the phone shares of its address book.
  phoneBook?: typeof savePhoneContacts;
  // Jitter source of the reconnect backoff.
  random?: () => number;
};

type BaileysLogger = SocketConfig['logger'];

// Shown on the phone's linked devices as "Atendi"; 'Chrome' is a browser WhatsApp accepts for
// both QR and pairing-code linking.
const BROWSER: SocketConfig['browser'] = ['Atendi', 'Chrome', '1.0.0'];
// Sent and received messages are kept this long, to quote them and answer retries.
const STORE_RETENTION_MS = 14 * 24 * 3600_000;
const PRUNE_EVERY_MS = 24 * 3600_000;
// A session that stayed open this long before being replaced starts counting replacements anew.
const REPLACED_STABLE_MS = 10 * 60_000;
const JID_CACHE_SIZE = 5_000;
const KEY_CACHE_SIZE = 20_000;
const RECENT_CHANGES = 500;

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

// Baileys logs every frame at info and below; it gets warnings and errors only (or less, when the
// app itself is quieter).
export const baileysLogger = (log: FastifyBaseLogger): BaileysLogger => {
  const level = LEVELS.indexOf(log.level) > LEVELS.indexOf('warn') ? log.level : 'warn';
  return log.child({ module: 'baileys' }, { level }) as BaileysLogger;
};

// A small map with a size bound: no timers to leak across reconnects, flushed when the pairing
// is forgotten.
const boundedCache = (max: number): CacheStore & { flushAll(): void } => {
  const items = new Map<string, unknown>();
  return {
    get: <T>(key: string) => items.get(key) as T | undefined,
    set: <T>(key: string, value: T) => {
      items.delete(key);
      items.set(key, value);
      if (items.size > max) items.delete(items.keys().next().value as string);
    },
    del: (key: string) => items.delete(key),
    flushAll: () => items.clear(),
  };
};

// Opus audio is what WhatsApp records; sending it as a voice note shows it like one.
const isVoiceNote = (mimetype: string) => /ogg|opus/i.test(mimetype);

// A forwarded message carries WhatsApp's forwarding mark (the "Forwarded" label on the phone).
const contentFor = async (
  request: SendRequest,
  readMedia: SessionContext['readMedia'],
): Promise<AnyMessageContent> => {
  const content = await plainContentFor(request, readMedia);
  return request.forwarded
    ? ({ ...content, contextInfo: { isForwarded: true, forwardingScore: 1 } } as AnyMessageContent)
    : content;
};

const plainContentFor = async (
  { body, media }: SendRequest,
  readMedia: SessionContext['readMedia'],
): Promise<AnyMessageContent> => {
  if (!media) return { text: body };
  const file = await readMedia(media.storedName);
  if (!file)
    throw new ChannelError('ERR_SENDING_WAPP_MSG', `The file ${media.fileName} is missing`);
  const caption = body || undefined;
  switch (media.mediaType) {
    case 'image':
      return { image: file, caption, mimetype: media.mimetype };
    case 'video':
      return { video: file, caption, mimetype: media.mimetype };
    case 'audio':
      // WhatsApp shows no caption on audio; the body is not sent.
      return { audio: file, mimetype: media.mimetype, ptt: isVoiceNote(media.mimetype) };
    default:
      return { document: file, mimetype: media.mimetype, fileName: media.fileName, caption };
  }
};

// The WhatsApp message id of a send with an idempotency key: the same key gives the same id, so a send
// repeated after a crash is the same message to WhatsApp, which keeps one. Shaped like the ids Baileys
// makes itself (3EB0 and 18 hex digits).
const messageIdFor = (whatsappId: number, key: string) =>
  `3EB0${createHash('sha256').update(`${whatsappId}:${key}`).digest('hex').slice(0, 18).toUpperCase()}`;

const failure = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const createBaileysDriver = (options: BaileysDriverOptions = {}): ChannelDriver => {
  const makeSocket = options.makeSocket ?? ((config) => makeWASocket(config));
  const loadAuthState = options.authState ?? useDatabaseAuthState;
  const openMessageStore = options.messageStore ?? createMessageStore;
  const random = options.random ?? Math.random;
  const savePhoneBook = options.phoneBook ?? savePhoneContacts;

  const createSession = (ctx: SessionContext): ChannelSession => {
    const ids = { whatsappId: ctx.connection.id, companyId: ctx.connection.companyId };
    const logger = baileysLogger(ctx.log);
    const store = openMessageStore(ctx.db, ids);
    const keyCache = boundedCache(KEY_CACHE_SIZE);
    // number -> the JID it is registered under (Brazil: with or without the ninth digit).
    const knownJids = new Map<string, string>();
    // Edits and revokes arrive twice (the protocol message, then Baileys' update): report one.
    const recentChanges = new Set<string>();

    let auth: DatabaseAuthState | undefined;
    // The socket whose events count; events of an older one are dropped.
    let sock: BaileysSocket | undefined;
    let open = false;
    // Bumped by start/stop/logout so a connect or timer of an earlier run gives up.
    let epoch = 0;
    let reconnectTimer: NodeJS.Timeout | undefined;
    let pruneTimer: NodeJS.Timeout | undefined;
    let attempts = 0;
    let replaced = 0;
    let pairingPhone: string | undefined;
    // Per socket:
    let wasOpen = false;
    let openedAt: number | undefined;
    let waitingForScan = false;
    let pairingRequested = false;
    // Events are handled one at a time, in the order Baileys emitted them.
    let queue: Promise<void> = Promise.resolve();

    const enqueue = (socket: BaileysSocket, task: () => Promise<void>) => {
      queue = queue
        .then(() => (socket === sock ? task() : undefined))
        .catch((err: unknown) => ctx.log.error({ err }, 'baileys event handling failed'));
    };

    const emit = (event: ChannelEvent) => ctx.emit(event);

    // Each chat's messages and changes are handed on one after another, in the order Baileys gave
    // them; different chats' side by side, and without holding up the events behind them. So the
    // messages of a busy number that arrive while a store is in flight are stored together
    // (tickets.engine.ts), as its chats' order requires and no more.
    const chats = new Map<string, Promise<void>>();
    const inChat = (chat: string, work: () => Promise<void>) => {
      const next = (chats.get(chat) ?? Promise.resolve())
        .then(work)
        .catch((err: unknown) => ctx.log.error({ err }, 'baileys event handling failed'));
      chats.set(chat, next);
      void next.then(() => {
        if (chats.get(chat) === next) chats.delete(chat);
      });
    };
    const chatOf = (key: WAMessage['key']) => key.remoteJid ?? '';

    const rememberContacts = (contacts: Contact[]) =>
      savePhoneBook(
        ctx.db,
        ctx.connection,
        contacts.map(phoneContactOf).filter((contact) => contact !== undefined),
      );

    const emitChange = async (change: Extract<ChannelEvent, { type: 'edit' | 'revoke' }>) => {
      const signature = JSON.stringify(change);
      if (recentChanges.has(signature)) return;
      recentChanges.add(signature);
      if (recentChanges.size > RECENT_CHANGES) {
        recentChanges.delete(recentChanges.values().next().value as string);
      }
      await emit(change);
    };

    const requireOpen = () => {
      if (!sock || !open) {
        throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'The WhatsApp session is not connected');
      }
      return sock;
    };

    const remember = async (message: WAMessage) => {
      try {
        await store.remember(message);
      } catch (err) {
        ctx.log.warn({ err, keyId: message.key.id }, 'could not keep a WhatsApp message');
      }
    };

    // LIDs without a phone JID next to them, resolved through Baileys' LID mapping store.
    const lidLookup = async (socket: BaileysSocket, lids: string[]): Promise<LidLookup> => {
      const found = new Map<string, string>();
      const mapping = socket.signalRepository?.lidMapping;
      for (const lid of new Set(lids)) {
        const phone = await mapping?.getPNForLID(lid).catch(() => null);
        if (phone) found.set(lid, phone);
      }
      return (lid) => found.get(lid);
    };

    const clearTimers = () => {
      clearTimeout(reconnectTimer);
      clearInterval(pruneTimer);
      reconnectTimer = undefined;
      pruneTimer = undefined;
    };

    // Detaches the current socket: whatever it emits from now on is ignored.
    const detach = () => {
      const socket = sock;
      sock = undefined;
      open = false;
      return socket;
    };

    const forgetPairing = async () => {
      keyCache.flushAll();
      knownJids.clear();
      await (auth ?? (await loadAuthState(ctx.db, ids))).clear();
      await store.clear();
    };

    const prune = () =>
      void store
        .prune(new Date(Date.now() - STORE_RETENTION_MS))
        .catch((err: unknown) => ctx.log.warn({ err }, 'could not prune the message store'));

    const scheduleReconnect = (run: number) => {
      const delay = backoffDelay(attempts, random);
      attempts += 1;
      reconnectTimer = setTimeout(() => {
        reconnectTimer = undefined;
        connect(run).catch((err: unknown) => {
          ctx.log.warn({ err }, 'baileys reconnect failed');
          if (run === epoch) scheduleReconnect(run);
        });
      }, delay);
    };

    const onQr = async (socket: BaileysSocket, qr: string) => {
      waitingForScan = true;
      if (pairingPhone) {
        // One code per socket: the phone keeps the first one valid while the socket lives.
        if (pairingRequested) return;
        pairingRequested = true;
        try {
          const code = await socket.requestPairingCode(pairingPhone);
          await emit({ type: 'pairingCode', code });
          await emit({ type: 'status', status: 'PAIRING' });
          return;
        } catch (err) {
          // Fall back to the QR rather than leave the user with nothing to act on.
          ctx.log.warn({ err }, 'pairing code request failed; showing the QR instead');
          pairingPhone = undefined;
        }
      }
      await emit({ type: 'qr', qr });
      await emit({ type: 'status', status: 'qrcode' });
    };

    const onOpen = async (socket: BaileysSocket) => {
      open = true;
      wasOpen = true;
      openedAt = Date.now();
      attempts = 0;
      waitingForScan = false;
      pairingPhone = undefined;
      // The live credentials: Baileys' socket.user is a copy taken when the socket was built.
      const me = auth?.state.creds.me ?? socket.user;
      const ownJid = me && isLidUser(me.id) ? me.phoneNumber : me?.id;
      const number = ownJid ? normalizeNumber(ownJid) : '';
      await emit({ type: 'qr', qr: '' });
      await emit({ type: 'status', status: 'CONNECTED', ...(number ? { number } : {}) });
      prune();
    };

    const onClose = async (run: number, statusCode: number | undefined) => {
      const stable = openedAt !== undefined && Date.now() - openedAt >= REPLACED_STABLE_MS;
      if (statusCode === DisconnectReason.connectionReplaced && stable) replaced = 0;
      const plan = mapDisconnect(statusCode, { wasOpen, waitingForScan, replaced });
      if (statusCode === DisconnectReason.connectionReplaced) replaced += 1;
      detach();
      if (plan.reconnect === 'never') {
        // Nothing runs until the next start().
        epoch += 1;
        clearTimers();
      }
      if (plan.clearAuth) await forgetPairing();
      if (plan.clearQr) await emit({ type: 'qr', qr: '' });
      if (plan.status) {
        await emit({
          type: 'status',
          status: plan.status,
          reason: plan.reason,
          ...(plan.cause ? { cause: plan.cause } : {}),
          ...(plan.reconnect === 'backoff' ? { retries: attempts + 1 } : {}),
        });
      }
      if (run !== epoch) return;
      if (plan.reconnect === 'now') await connect(run);
      if (plan.reconnect === 'backoff') scheduleReconnect(run);
    };

    const onUpsert = async (socket: BaileysSocket, messages: WAMessage[]) => {
      const lookup = await lidLookup(
        socket,
        messages.flatMap((m) => unresolvedLids(m.key)),
      );
      for (const msg of messages) {
        const inbound = mapMessage(msg, lookup);
        if (inbound) {
          // Kept to quote it and mark it read later with its exact key.
          await remember(msg);
          inChat(chatOf(msg.key), () => emit({ type: 'message', message: inbound }));
          continue;
        }
        const reaction = mapReaction(msg, lookup);
        if (reaction) {
          inChat(chatOf(msg.key), () => emit(reaction));
          continue;
        }
        const change = mapProtocol(msg);
        if (change) inChat(chatOf(msg.key), () => emitChange(change));
      }
    };

    const onUpdates = async (updates: BaileysEventMap['messages.update']) => {
      for (const update of updates) {
        const ack = mapAck(update);
        if (ack) await emit(ack);
        const change = mapProtocol({
          key: update.key,
          message: update.update.message,
          messageStubType: update.update.messageStubType,
        });
        if (change) inChat(chatOf(update.key), () => emitChange(change));
      }
    };

    const onReceipts = async (receipts: BaileysEventMap['message-receipt.update']) => {
      for (const receipt of receipts) {
        const ack = mapAck(receipt);
        if (ack) await emit(ack);
      }
    };

    const onPresence = async (
      socket: BaileysSocket,
      update: BaileysEventMap['presence.update'],
    ) => {
      const lookup = isLidUser(update.id)
        ? await lidLookup(socket, [jidNormalizedUser(update.id)])
        : undefined;
      const typing = mapPresence(update, lookup);
      if (typing) await emit(typing);
    };

    const onConnection = async (
      run: number,
      socket: BaileysSocket,
      update: Partial<ConnectionState>,
    ) => {
      const step = mapConnectionUpdate(update);
      if (step.kind === 'qr') await onQr(socket, step.qr);
      if (step.kind === 'open') await onOpen(socket);
      if (step.kind === 'close') await onClose(run, step.statusCode);
    };

    // One socket at a time, with the stored pairing (or a fresh one that will show a QR).
    const connect = async (run: number) => {
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      const state = await loadAuthState(ctx.db, ids);
      if (run !== epoch) return;
      auth = state;
      wasOpen = false;
      openedAt = undefined;
      waitingForScan = false;
      pairingRequested = false;
      const socket = makeSocket({
        auth: {
          creds: state.state.creds,
          keys: makeCacheableSignalKeyStore(state.state.keys, logger, keyCache),
        },
        logger,
        browser: BROWSER,
        markOnlineOnConnect: false,
        syncFullHistory: false,
        // Our own sends would come back as 'append' upserts while the platform is still storing them.
        emitOwnEvents: false,
        getMessage: (key: WAMessageKey) => store.getMessage(key),
      });
      sock = socket;
      enqueue(socket, () => emit({ type: 'status', status: 'OPENING' }));
      socket.ev.on('creds.update', () => enqueue(socket, () => state.saveCreds()));
      socket.ev.on('connection.update', (update) =>
        enqueue(socket, () => onConnection(run, socket, update)),
      );
      socket.ev.on('messages.upsert', ({ messages }) =>
        enqueue(socket, () => onUpsert(socket, messages)),
      );
      socket.ev.on('messages.update', (updates) => enqueue(socket, () => onUpdates(updates)));
      socket.ev.on('message-receipt.update', (receipts) =>
        enqueue(socket, () => onReceipts(receipts)),
      );
      socket.ev.on('presence.update', (update) =>
        enqueue(socket, () => onPresence(socket, update)),
      );
      // The phone's address book, for POST /contacts/import.
      socket.ev.on('messaging-history.set', ({ contacts }) =>
        enqueue(socket, () => rememberContacts(contacts)),
      );
      socket.ev.on('contacts.upsert', (contacts) =>
        enqueue(socket, () => rememberContacts(contacts)),
      );
    };

    // The JID a number is registered under. WhatsApp still has Brazilian accounts without the
    // ninth digit and Mexican ones with the old '1', so both forms are asked for; the answer is
    // cached for the session. A send goes to the stored form when the lookup fails; a check (strict)
    // reports the failure.
    const resolveJid = async (socket: BaileysSocket, to: string, strict = false) => {
      if (to.includes('@') || isGroupId(to)) return toJid(to);
      const variants = numberVariants(to);
      const cached = knownJids.get(variants[0]);
      if (cached) return cached;
      let results: Awaited<ReturnType<BaileysSocket['onWhatsApp']>>;
      try {
        results = await socket.onWhatsApp(...variants);
      } catch (err) {
        if (strict) {
          ctx.log.warn({ err }, 'WhatsApp number lookup failed');
          throw new ChannelError('ERR_WAPP_CHECK_CONTACT', 'WhatsApp did not answer the lookup');
        }
        ctx.log.warn({ err }, 'WhatsApp number lookup failed; sending to the canonical number');
        return toJid(variants[0]);
      }
      if (!results) {
        if (strict)
          throw new ChannelError('ERR_WAPP_CHECK_CONTACT', 'WhatsApp did not answer the lookup');
        return toJid(variants[0]);
      }
      const existing = results.filter((r) => r.exists).map((r) => jidNormalizedUser(r.jid));
      const jid =
        variants
          .map((variant) => existing.find((j) => j === `${variant}@s.whatsapp.net`))
          .find(Boolean) ?? existing[0];
      if (!jid) {
        throw new ChannelError('ERR_WAPP_INVALID_CONTACT', `${to} is not on WhatsApp`);
      }
      knownJids.set(variants[0], jid);
      if (knownJids.size > JID_CACHE_SIZE) {
        knownJids.delete(knownJids.keys().next().value as string);
      }
      return jid;
    };

    // The quoted message as WhatsApp needs it (key and content, for the preview). It is in the
    // store when we sent or received it in the last STORE_RETENTION_MS; otherwise a minimal
    // stand-in with its id still links the reply, with an empty preview.
    const quotedMessage = async (jid: string, quotedId: string): Promise<WAMessage> => {
      const stored = await store.load(quotedId).catch(() => undefined);
      return (
        stored ?? {
          key: { remoteJid: jid, id: quotedId, fromMe: false },
          message: { conversation: '' },
        }
      );
    };

    // Stops whatever runs (socket, timers) without events; the caller owns the status.
    const halt = () => {
      epoch += 1;
      clearTimers();
      return detach();
    };

    return {
      async start(startOptions) {
        const previous = halt();
        await previous?.end(undefined).catch(() => undefined);
        const run = epoch;
        attempts = 0;
        replaced = 0;
        pairingPhone = startOptions?.phoneNumber
          ? normalizeNumber(startOptions.phoneNumber)
          : undefined;
        pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
        pruneTimer.unref?.();
        await connect(run);
      },

      async stop() {
        const socket = halt();
        await socket?.end(undefined).catch(() => undefined);
      },

      async logout() {
        const wasConnected = open;
        const socket = halt();
        if (socket && wasConnected) {
          // Tells WhatsApp to unlink the device; without a connection only our side forgets it.
          await socket.logout().catch((err: unknown) => ctx.log.warn({ err }, 'logout failed'));
        }
        await socket?.end(undefined).catch(() => undefined);
        await forgetPairing();
      },

      async checkNumber(number) {
        await resolveJid(requireOpen(), normalizeNumber(number), true);
      },

      async sendMessage(request) {
        const socket = requireOpen();
        const jid = await resolveJid(socket, request.to);
        const quoted = request.quotedId ? await quotedMessage(jid, request.quotedId) : undefined;
        const content = await contentFor(request, ctx.readMedia);
        let sent: WAMessage | undefined;
        try {
          sent = await socket.sendMessage(jid, content, {
            ...(quoted ? { quoted } : {}),
            ...(request.idempotencyKey
              ? { messageId: messageIdFor(ctx.connection.id, request.idempotencyKey) }
              : {}),
          });
        } catch (err) {
          throw new ChannelError('ERR_SENDING_WAPP_MSG', failure(err));
        }
        if (!sent?.key.id) {
          throw new ChannelError('ERR_SENDING_WAPP_MSG', 'WhatsApp did not accept the message');
        }
        await remember(sent);
        return { providerId: sent.key.id, timestamp: toDate(sent.messageTimestamp) };
      },

      async deleteMessage({ to, providerId, fromMe }) {
        const socket = requireOpen();
        const stored = await store.load(providerId).catch(() => undefined);
        const key = stored?.key ?? {
          remoteJid: await resolveJid(socket, to),
          id: providerId,
          fromMe,
        };
        try {
          await socket.sendMessage(key.remoteJid ?? toJid(to), { delete: key });
        } catch (err) {
          throw new ChannelError('ERR_DELETE_WAPP_MSG', failure(err));
        }
      },

      async react({ to, providerId, fromMe, participant, emoji }) {
        const socket = requireOpen();
        // The stored key names the exact chat and author WhatsApp expects the reaction to point at.
        const stored = await store.load(providerId).catch(() => undefined);
        const remoteJid = stored?.key.remoteJid ?? (await resolveJid(socket, to));
        const key = stored?.key ?? {
          remoteJid,
          id: providerId,
          fromMe,
          ...(participant && isGroupId(remoteJid) ? { participant: toJid(participant) } : {}),
        };
        try {
          await socket.sendMessage(remoteJid, { react: { text: emoji, key } });
        } catch (err) {
          throw new ChannelError('ERR_SENDING_WAPP_MSG', failure(err));
        }
      },

      async sendPresence({ to, typing }) {
        const socket = requireOpen();
        const jid = await resolveJid(socket, to);
        await socket
          .sendPresenceUpdate(typing ? 'composing' : 'paused', jid)
          .catch((err: unknown) => {
            throw new ChannelError('ERR_SENDING_WAPP_MSG', failure(err));
          });
      },

      async markRead({ from, providerIds }) {
        const socket = requireOpen();
        if (providerIds.length === 0) return;
        // Stored keys carry the exact chat and participant the receipt must name.
        const stored = await store.loadMany(providerIds).catch(() => []);
        const keys = new Map(stored.map((m) => [m.key.id, m.key]));
        const chat = from.includes('@')
          ? toJid(from)
          : (knownJids.get(numberVariants(from)[0]) ?? toJid(from));
        await socket.readMessages(
          providerIds.map((id) => keys.get(id) ?? { remoteJid: chat, id, fromMe: false }),
        );
      },

      async downloadMedia(message) {
        const socket = requireOpen();
        if (!message.raw) {
          throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'The message carries no WhatsApp data');
        }
        try {
          const data = await downloadMediaMessage(
            reviveWAMessage(message.raw),
            'buffer',
            {},
            { reuploadRequest: (m) => socket.updateMediaMessage(m), logger },
          );
          return {
            data,
            mimetype: message.media?.mimetype ?? 'application/octet-stream',
            ...(message.media?.fileName ? { fileName: message.media.fileName } : {}),
          };
        } catch (err) {
          throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', failure(err));
        }
      },
    };
  };

  return { provider: 'beta', pairs: true, createSession };
};

export const baileysDriver = createBaileysDriver();
