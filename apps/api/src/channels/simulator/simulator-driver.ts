import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  SIMULATOR_OUTBOUND_PAGE_SIZE,
  type MediaType,
  type SimulatorConversationItem,
  type SimulatorInbound,
  type SimulatorOutboundView,
} from '@atendi/shared';
import { simulatorMessages, whatsappAuthKeys } from '../../db/schema';
import { insertRows } from '../../db/rows';
import { groupCommit } from '../../platform/group-commit';
import { stripNul } from '../../platform/nul';
import {
  ChannelError,
  type Ack,
  type ChannelDriver,
  type ChannelSession,
  type InboundMessage,
  type SessionContext,
} from '../driver';
import type { SessionExtras } from '../manager';
import { normalizeNumber, numberVariants } from '../numbers';
import { savePhoneContacts, type PhoneContact } from '../phone-book';

// A virtual phone for the embedded demo and the tests. It pairs through the same QR flow as a real
// device (status qrcode, a code that changes while nobody scans, CONNECTED once "scanned"), keeps its
// pairing in the same auth-state table as Baileys, and records what the platform sends to it and what
// its contacts write, so the phone shows both sides of each chat.

type Pairing = { paired: true; number: string };

type SimulatorOptions = {
  // How long a QR code is shown before a new one replaces it, and how many are shown before giving up.
  qrIntervalMs?: number;
  maxQrCodes?: number;
  // Where inbound media waits until the platform downloads it.
  spoolDir?: string;
};

const mimeTypes: Partial<Record<MediaType, string>> = {
  image: 'image/png',
  audio: 'audio/mpeg',
  video: 'video/mp4',
  application: 'application/octet-stream',
};

// The simulated network's directory. Numbers of the international freephone (+800) and shared-cost
// (+808) services are valid numbers that no phone, and so no WhatsApp account, has: one starting 800
// has no account, and a lookup of one starting 808 fails, as when WhatsApp does not answer.
const SIMULATOR_NOT_ON_WHATSAPP = '800';
const SIMULATOR_LOOKUP_FAILS = '808';
const lookUp = (to: string) => {
  if (to.includes('@')) return;
  const number = normalizeNumber(to);
  if (number.startsWith(SIMULATOR_LOOKUP_FAILS))
    throw new ChannelError('ERR_WAPP_CHECK_CONTACT', 'The simulated network did not answer');
  if (number.startsWith(SIMULATOR_NOT_ON_WHATSAPP))
    throw new ChannelError('ERR_WAPP_INVALID_CONTACT', `${number} is not on WhatsApp`);
};

const newId = (prefix: string) => `${prefix}${randomBytes(10).toString('hex').toUpperCase()}`;

export const createSimulatorDriver = (options: SimulatorOptions = {}): ChannelDriver => {
  const qrIntervalMs = options.qrIntervalMs ?? 20_000;
  const maxQrCodes = options.maxQrCodes ?? 6;
  const spoolDir = options.spoolDir ?? path.join(tmpdir(), 'atendi-simulator');

  return {
    provider: 'simulator',
    pairs: true,
    createSession(ctx: SessionContext): ChannelSession & { extras: SessionExtras } {
      const { db, connection } = ctx;
      const whatsappId = connection.id;
      let state: 'stopped' | 'waiting' | 'connected' = 'stopped';
      let qrTimer: NodeJS.Timeout | undefined;
      let codesShown = 0;

      const credsWhere = and(
        eq(whatsappAuthKeys.whatsappId, whatsappId),
        eq(whatsappAuthKeys.type, 'creds'),
        eq(whatsappAuthKeys.keyId, ''),
      );
      const readPairing = async () =>
        (await db.select().from(whatsappAuthKeys).where(credsWhere))[0]?.value as
          Pairing | undefined;

      const clearTimer = () => {
        clearTimeout(qrTimer);
        qrTimer = undefined;
      };

      const showQr = async () => {
        if (state !== 'waiting') return;
        if (codesShown >= maxQrCodes) {
          // Nobody scanned: stop waiting, as WhatsApp does, until someone asks again.
          state = 'stopped';
          await ctx.emit({
            type: 'status',
            status: 'DISCONNECTED',
            reason: 'QR code not scanned in time',
            cause: 'qr_timeout',
          });
          return;
        }
        codesShown += 1;
        await ctx.emit({
          type: 'qr',
          qr: `atendi-simulator:${whatsappId}:${randomBytes(12).toString('hex')}`,
        });
        qrTimer = setTimeout(() => {
          showQr().catch((err: unknown) => ctx.log.warn({ err }, 'simulator QR refresh failed'));
        }, qrIntervalMs);
        qrTimer.unref();
      };

      // What the contacts write and what the platform sends, kept on the phone: the writes that
      // arrive while one is in flight go together (a busy phone's hundreds a second, a bot's replies).
      // Answers each row's id, or null for a redelivery or a repeated send.
      const keep = groupCommit(async (rows: (typeof simulatorMessages.$inferInsert)[]) => {
        // A redelivery meets the unique (whatsapp_id, provider_id) and is not kept again.
        const kept = await insertRows(db, simulatorMessages, rows, { onConflictDoNothing: true });
        const idOf = new Map(kept.map((row) => [row.providerId, row.id]));
        // A provider id given twice in one write is kept once, for the first.
        return rows.map((row) => {
          const id = idOf.get(row.providerId) ?? null;
          idOf.delete(row.providerId);
          return id;
        });
      });

      // Whether the platform shows each chat "typing…" (the phone's screen, and the tests, read it).
      const agentTyping = new Map<string, boolean>();

      const connected = () => {
        if (state !== 'connected')
          throw new ChannelError(
            'ERR_WAPP_NOT_INITIALIZED',
            'The simulated phone is not connected',
          );
      };

      const extras: SessionExtras = {
        // The phone scans the code (or types the pairing code).
        async scan() {
          if (state !== 'waiting')
            throw new ChannelError(
              'ERR_WAPP_NOT_INITIALIZED',
              'No QR code is waiting to be scanned',
            );
          clearTimer();
          const number = `5500000${String(whatsappId).padStart(6, '0')}`;
          const pairing: Pairing = { paired: true, number };
          await db
            .insert(whatsappAuthKeys)
            .values({
              whatsappId,
              companyId: connection.companyId,
              type: 'creds',
              keyId: '',
              value: pairing,
            })
            .onConflictDoUpdate({
              target: [whatsappAuthKeys.whatsappId, whatsappAuthKeys.type, whatsappAuthKeys.keyId],
              set: { value: pairing, updatedAt: new Date() },
            });
          state = 'connected';
          await ctx.emit({ type: 'qr', qr: '' });
          await ctx.emit({ type: 'status', status: 'CONNECTED', number });
          return { status: 'CONNECTED' };
        },

        // A contact writes; a repeated id is a redelivery of the same message.
        async inbound(raw) {
          connected();
          const input = raw as SimulatorInbound & { mediaPath?: string };
          const providerId = input.id ?? newId('SIM');
          const number = normalizeNumber(input.from);
          const mediaType: MediaType =
            input.mediaType ?? (input.mediaPath ? 'application' : 'chat');
          const message: InboundMessage = {
            providerId,
            from: input.isGroup ? `${number}@g.us` : number,
            contactName: input.name,
            body: input.body ?? '',
            mediaType,
            ...(input.mediaPath
              ? {
                  media: {
                    fileName: input.fileName ?? `file-${providerId}`,
                    mimetype: mimeTypes[mediaType] ?? 'application/octet-stream',
                  },
                }
              : {}),
            quotedId: input.quotedId,
            isGroup: input.isGroup ?? false,
            fromMe: false,
            timestamp: new Date(),
            raw: input.mediaPath ? { mediaPath: input.mediaPath } : {},
          };
          // The phone's chat shows it before the platform can answer it, so the two sides keep their
          // order; a message the platform refused is taken back (a redelivery keeps the one copy).
          const recorded = await keep({
            companyId: connection.companyId,
            whatsappId,
            providerId,
            direction: 'in',
            to: message.from,
            // As the platform will store it: PostgreSQL text holds no NUL (the manager strips them
            // from the event on its way in).
            body: stripNul(message.body),
            mediaType,
            fileName: stripNul(message.media?.fileName ?? null),
            quotedId: input.quotedId ?? null,
            // Every row of a group commit gives the same columns (a send may be kept with it).
            forwarded: false,
            ack: 0,
            createdAt: message.timestamp,
          });
          try {
            await ctx.emit({ type: 'message', message });
          } catch (error) {
            if (recorded !== null)
              await db.delete(simulatorMessages).where(eq(simulatorMessages.id, recorded));
            throw error;
          }
          return { id: providerId };
        },

        // The contact's phone reports delivery or reading of something the platform sent.
        async ack(raw) {
          const { id, ack } = raw as { id: string; ack: Ack };
          const [row] = await db
            .update(simulatorMessages)
            .set({ ack: sql`greatest(${simulatorMessages.ack}, ${ack})` })
            .where(
              and(
                eq(simulatorMessages.whatsappId, whatsappId),
                eq(simulatorMessages.providerId, id),
                eq(simulatorMessages.direction, 'out'),
              ),
            )
            .returning();
          if (!row)
            throw new ChannelError('ERR_FETCH_WAPP_MSG', 'The phone never received this message');
          await ctx.emit({ type: 'ack', providerId: id, ack });
          return null;
        },

        async typing(raw) {
          connected();
          const { from, typing } = raw as { from: string; typing: boolean };
          await ctx.emit({ type: 'typing', from: normalizeNumber(from), typing });
          return null;
        },

        // What the contact's phone shows of the platform: "typing…" or not, per chat.
        async presence(raw) {
          const { to } = raw as { to: string };
          return { typing: agentTyping.get(normalizeNumber(to)) ?? false };
        },

        // A contact reacts to a message of their chat; the phone shows it on the message.
        async reaction(raw) {
          connected();
          const { from, id, emoji } = raw as { from: string; id: string; emoji: string };
          const number = normalizeNumber(from);
          const [row] = await db
            .update(simulatorMessages)
            .set({ contactReaction: emoji })
            .where(
              and(
                eq(simulatorMessages.whatsappId, whatsappId),
                eq(simulatorMessages.providerId, id),
                inArray(simulatorMessages.to, numberVariants(number)),
              ),
            )
            .returning({ id: simulatorMessages.id });
          if (!row) throw new ChannelError('ERR_FETCH_WAPP_MSG', 'This chat has no such message');
          await ctx.emit({
            type: 'reaction',
            providerId: id,
            from: number,
            fromMe: false,
            emoji,
            timestamp: new Date(),
          });
          return null;
        },

        async contacts(raw) {
          connected();
          const { contacts } = raw as { contacts: PhoneContact[] };
          await savePhoneContacts(
            db,
            connection,
            contacts.map(({ number, name }) => ({ number: normalizeNumber(number), name })),
          );
          return null;
        },

        // The phone unlinks this device: the pairing is gone, as after "log out" on WhatsApp. A phone
        // that never linked it has nothing to unlink.
        async disconnect() {
          connected();
          clearTimer();
          state = 'stopped';
          await db.delete(whatsappAuthKeys).where(eq(whatsappAuthKeys.whatsappId, whatsappId));
          await ctx.emit({
            type: 'status',
            status: 'DISCONNECTED',
            reason: 'unlinked from the phone',
            cause: 'logged_out',
          });
          return null;
        },
      };

      return {
        extras,
        async start(startOptions) {
          clearTimer();
          const pairing = await readPairing();
          if (pairing?.paired) {
            state = 'connected';
            await ctx.emit({ type: 'status', status: 'CONNECTED', number: pairing.number });
            return;
          }
          state = 'waiting';
          codesShown = 0;
          if (startOptions?.phoneNumber) {
            const code = randomBytes(4).toString('hex').toUpperCase();
            await ctx.emit({ type: 'pairingCode', code: `${code.slice(0, 4)}-${code.slice(4)}` });
            return;
          }
          await showQr();
        },
        async stop() {
          clearTimer();
          state = 'stopped';
        },
        async logout() {
          clearTimer();
          state = 'stopped';
          await db.delete(whatsappAuthKeys).where(eq(whatsappAuthKeys.whatsappId, whatsappId));
        },
        async checkNumber(number) {
          connected();
          lookUp(number);
        },
        async sendMessage(request) {
          connected();
          // Like Baileys, a send goes ahead when the lookup fails, and never to a number without an account.
          try {
            lookUp(request.to);
          } catch (error) {
            if ((error as ChannelError).code === 'ERR_WAPP_INVALID_CONTACT') throw error;
          }
          const providerId = request.idempotencyKey
            ? `SIMOUT${createHash('sha256').update(`${whatsappId}:${request.idempotencyKey}`).digest('hex').slice(0, 20).toUpperCase()}`
            : newId('SIMOUT');
          const timestamp = new Date();
          const stored = await keep({
            companyId: connection.companyId,
            whatsappId,
            providerId,
            direction: 'out',
            to: request.to,
            body: request.body,
            mediaType: request.media?.mediaType ?? 'chat',
            fileName: request.media?.fileName ?? null,
            quotedId: request.quotedId ?? null,
            forwarded: request.forwarded ?? false,
            // The server took it (one grey tick); the phone panel delivers and reads it.
            ack: 2,
            createdAt: timestamp,
          });
          if (stored === null) {
            // A repeat of a send the phone already has: it keeps the one copy.
            const [first] = await db
              .select()
              .from(simulatorMessages)
              .where(
                and(
                  eq(simulatorMessages.whatsappId, whatsappId),
                  eq(simulatorMessages.providerId, providerId),
                ),
              );
            if (first) return { providerId, timestamp: first.createdAt, ack: first.ack as Ack };
          }
          // The simulated phone has it at once: the chat shows what the phone shows.
          return { providerId, timestamp, ack: 2 };
        },
        async deleteMessage({ providerId }) {
          connected();
          const rows = await db
            .update(simulatorMessages)
            .set({ deleted: true })
            .where(
              and(
                eq(simulatorMessages.whatsappId, whatsappId),
                eq(simulatorMessages.providerId, providerId),
                eq(simulatorMessages.direction, 'out'),
              ),
            )
            .returning({ id: simulatorMessages.id });
          if (!rows.length)
            throw new ChannelError('ERR_DELETE_WAPP_MSG', 'The phone never received this message');
        },
        async markRead() {
          connected();
        },
        async sendPresence({ to, typing }) {
          connected();
          const chat = to.includes('@') ? to : normalizeNumber(to);
          if (typing) agentTyping.set(chat, true);
          else agentTyping.delete(chat);
        },
        async react({ to, providerId, emoji }) {
          connected();
          const rows = await db
            .update(simulatorMessages)
            .set({ platformReaction: emoji })
            .where(
              and(
                eq(simulatorMessages.whatsappId, whatsappId),
                eq(simulatorMessages.providerId, providerId),
                inArray(simulatorMessages.to, to.includes('@') ? [to] : numberVariants(to)),
              ),
            )
            .returning({ id: simulatorMessages.id });
          if (!rows.length)
            throw new ChannelError('ERR_SENDING_WAPP_MSG', 'The phone has no such message');
        },
        async downloadMedia(message) {
          const file = (message.raw as { mediaPath?: string } | undefined)?.mediaPath;
          if (!file || path.dirname(file) !== spoolDir)
            throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'This message has no file');
          const data = await readFile(file).catch(() => {
            throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'The file is no longer on the phone');
          });
          await rm(file, { force: true });
          return {
            data,
            mimetype: message.media?.mimetype ?? 'application/octet-stream',
            fileName: message.media?.fileName,
          };
        },
      };
    },
  };
};

// Media sent "from the phone" waits in a spool file so any node can hand it to the session's owner.
export const spoolMedia = async (spoolDir: string, base64: string) => {
  await mkdir(spoolDir, { recursive: true });
  const file = path.join(spoolDir, randomBytes(16).toString('hex'));
  await writeFile(file, Buffer.from(base64, 'base64'), { mode: 0o600 });
  return file;
};

// A page of the phone's messages, newest page first (pageNumber 1: the latest messages), each page
// oldest to newest.
const pageOf = async (db: SessionContext['db'], where: SQL | undefined, pageNumber: number) =>
  (
    await db
      .select()
      .from(simulatorMessages)
      .where(where)
      .orderBy(desc(simulatorMessages.id))
      .limit(SIMULATOR_OUTBOUND_PAGE_SIZE)
      .offset((pageNumber - 1) * SIMULATOR_OUTBOUND_PAGE_SIZE)
  ).reverse();

// A stored message as the phone's screens read it (who it is with is named by each list).
const messageOf = (row: typeof simulatorMessages.$inferSelect) => ({
  id: row.providerId,
  body: row.body,
  mediaType: row.mediaType,
  fileName: row.fileName,
  quotedId: row.quotedId,
  ack: row.ack,
  forwarded: row.forwarded,
  contactReaction: row.contactReaction,
  platformReaction: row.platformReaction,
  createdAt: row.createdAt.toISOString(),
});

// What the phone received from the platform.
export const listOutbound = async (
  db: SessionContext['db'],
  whatsappId: number,
  pageNumber = 1,
): Promise<SimulatorOutboundView[]> =>
  (
    await pageOf(
      db,
      and(eq(simulatorMessages.whatsappId, whatsappId), eq(simulatorMessages.direction, 'out')),
      pageNumber,
    )
  ).map((row) => ({ ...messageOf(row), to: row.to }));

// Both sides of the phone's chats in the order they happened; with a number, the chat with that
// contact only (under either form of a Brazilian mobile).
export const listConversation = async (
  db: SessionContext['db'],
  whatsappId: number,
  { number, pageNumber = 1 }: { number?: string; pageNumber?: number },
): Promise<SimulatorConversationItem[]> =>
  (
    await pageOf(
      db,
      and(
        eq(simulatorMessages.whatsappId, whatsappId),
        number ? inArray(simulatorMessages.to, numberVariants(number)) : undefined,
      ),
      pageNumber,
    )
  ).map((row) => ({ ...messageOf(row), direction: row.direction, contact: row.to }));

// Keeps the phone's history short.
export const pruneOutbound = (db: SessionContext['db'], before: Date) =>
  db.delete(simulatorMessages).where(lt(simulatorMessages.createdAt, before));
