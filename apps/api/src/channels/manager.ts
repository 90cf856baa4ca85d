import { stripNul } from '../platform/nul';
import type { SecretBox } from '../platform/secrets';
import { withOpenCloudSecrets } from './cloud/credentials';
import { eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type {
  ConnectionCause,
  ConnectionStatus,
  MediaError,
  Provider,
  WhatsappSessionView,
} from '@atendi/shared';
import type { Db } from '../db/client';
import type { DomainEvents } from '../events/domain-events';
import { whatsapps } from '../db/schema';
import { AppError } from '../platform/errors';
import type { Uploads } from '../platform/uploads';
import type { Realtime } from '../realtime/realtime';
import {
  ChannelError,
  type ChannelDriver,
  type ChannelEvent,
  type ChannelSession,
  type ConnectionRow,
  type InboundMessage,
  type ReactRequest,
  type SendRequest,
  type SendResult,
  type StoredMedia,
  sessionMoving,
} from './driver';
import { RemoteError, type Leases } from './leases';

// Runs the sessions of this node and is the one door to them for everything above the channel
// layer: start/stop/pair, send, and the stream of events (messages, acks, typing, edits, revokes).

export type ConnectionRef = { id: number; companyId: number; provider: Provider };

export type ChannelEventInput = {
  connection: ConnectionRef;
  event: ChannelEvent;
  // For message events with a file: where it was stored, or why it could not be fetched.
  media?: StoredMedia;
  mediaError?: MediaError;
};
type ChannelEventHandler = (input: ChannelEventInput) => Promise<void>;

// Driver-specific actions a session may offer beyond ChannelSession (the simulator's virtual phone).
export type SessionExtras = Record<string, (args: unknown) => Promise<unknown>>;
type Running = { session: ChannelSession & { extras?: SessionExtras }; connection: ConnectionRow };

export type ChannelManager = ReturnType<typeof createChannelManager>;

const sessionView = (row: ConnectionRow): WhatsappSessionView => ({
  id: row.id,
  status: row.status,
  updatedAt: row.updatedAt.toISOString(),
  qrcode: row.qrcode,
  pairingCode: row.pairingCode,
  retries: row.retries,
  number: row.number,
  cloudQualityRating: row.cloudQualityRating,
  cloudMessagingLimit: row.cloudMessagingLimit,
});

const starters = new Set(['start', 'restart', 'newQr']);
const HANDOVER_WAIT_MS = 8000;

export const createChannelManager = (options: {
  db: Db;
  log: FastifyBaseLogger;
  realtime: Realtime;
  uploads: Uploads;
  leases: Leases;
  drivers: ChannelDriver[];
  // Opens the credentials a connection keeps sealed (the Cloud API's), for its driver.
  secrets: Pick<SecretBox, 'open'>;
  // A status written here that changes the connection's is told as connection.status.
  events: Pick<DomainEvents, 'transaction'>;
  // The outbound guard's fetch, for drivers calling company-supplied URLs.
  fetch: typeof fetch;
  // How often a node looks for sessions nobody runs (another node died); 0 turns the sweep off.
  claimIntervalMs?: number;
  // How long a call on a session between nodes waits for the next owner before it is answered
  // ERR_WAPP_SESSION_MOVING (default 8 s).
  handoverWaitMs?: number;
}) => {
  const { db, log, realtime, uploads, leases, events } = options;
  const drivers = new Map(options.drivers.map((d) => [d.provider, d]));
  const running = new Map<number, Running>();
  const handlers = new Set<ChannelEventHandler>();
  // Start, stop and pairing of one connection never interleave.
  const queues = new Map<number, Promise<unknown>>();
  // Sessions this node is taking over (lock asked for, not yet started).
  const claiming = new Set<number>();
  let closing = false;
  let sweep: NodeJS.Timeout | undefined;

  const serial = <T>(id: number, work: () => Promise<T>): Promise<T> => {
    const previous = queues.get(id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    const tail = next.catch(() => undefined);
    queues.set(id, tail);
    void tail.then(() => {
      if (queues.get(id) === tail) queues.delete(id);
    });
    return next;
  };

  const load = async (id: number) =>
    (await db.select().from(whatsapps).where(eq(whatsapps.id, id)))[0];

  const emitSession = (row: ConnectionRow) =>
    realtime
      .toCompany(row.companyId)
      .emit('whatsappSession', { action: 'update', session: sessionView(row) });

  // Writes session fields and tells the company's screens; a status that differs from the stored one
  // is a connection.status, read under the row's lock so concurrent writes each see the one before.
  const persist = async (
    id: number,
    patch: Partial<
      Pick<
        ConnectionRow,
        | 'status'
        | 'qrcode'
        | 'pairingCode'
        | 'number'
        | 'cloudQualityRating'
        | 'cloudMessagingLimit'
        | 'cloudHealthAt'
      >
    > & {
      retries?: number | ReturnType<typeof sql>;
    },
    why: { cause?: ConnectionCause; detail?: string } = {},
  ) => {
    const row = await events.transaction(db, async (tx, raise) => {
      const [was] = patch.status
        ? await tx
            .select({ status: whatsapps.status })
            .from(whatsapps)
            .where(eq(whatsapps.id, id))
            .for('update')
        : [];
      const [written] = await tx
        .update(whatsapps)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(whatsapps.id, id))
        .returning();
      if (written && was && was.status !== written.status)
        raise({
          type: 'connection.status',
          companyId: written.companyId,
          whatsappId: id,
          before: was.status,
          after: written.status,
          cause: why.cause ?? null,
          detail: (why.detail ?? '').slice(0, 500),
        });
      return written;
    });
    if (!row) return undefined;
    const current = running.get(id);
    if (current) current.connection = row;
    emitSession(row);
    return row;
  };

  const refOf = (row: ConnectionRow): ConnectionRef => ({
    id: row.id,
    companyId: row.companyId,
    provider: row.provider,
  });

  const dispatch = async (input: ChannelEventInput) => {
    for (const handler of handlers) await handler(input);
  };

  const fetchMedia = async (
    session: ChannelSession,
    row: ConnectionRow,
    message: InboundMessage,
  ) => {
    try {
      const file = await session.downloadMedia(message);
      const stored = await uploads.store(row.companyId, file.data, {
        fileName: file.fileName ?? message.media?.fileName,
        mimetype: file.mimetype,
      });
      return {
        media: {
          storedName: stored.storedName,
          fileName: stored.originalName,
          mimetype: file.mimetype,
          size: stored.size,
        },
      };
    } catch (err) {
      // The company's storage is full: the message is kept, marked, without its file.
      if (err instanceof AppError && err.code === 'ERR_STORAGE_QUOTA_EXCEEDED') {
        log.info(
          { whatsappId: row.id, companyId: row.companyId, providerId: message.providerId },
          'media not stored: storage full',
        );
        return { mediaError: err.code };
      }
      log.warn(
        { err, whatsappId: row.id, providerId: message.providerId },
        'media download failed',
      );
      return { mediaError: 'ERR_WAPP_DOWNLOAD_MEDIA' as const };
    }
  };

  // What every session event goes through, whichever driver reported it.
  const handleEvent = async (
    row: ConnectionRow,
    session: ChannelSession,
    reported: ChannelEvent,
  ) => {
    // A NUL in a WhatsApp text would fail the insert and lose the message (platform/nul.ts).
    const event = stripNul(reported);
    switch (event.type) {
      case 'qr':
        await persist(
          row.id,
          event.qr
            ? {
                qrcode: event.qr,
                pairingCode: '',
                status: 'qrcode',
                retries: sql`${whatsapps.retries} + 1`,
              }
            : { qrcode: '' },
        );
        return;
      case 'pairingCode':
        await persist(row.id, { pairingCode: event.code, qrcode: '', status: 'PAIRING' });
        return;
      case 'status': {
        const settled = event.status === 'CONNECTED' || event.status === 'DISCONNECTED';
        await persist(
          row.id,
          {
            status: event.status,
            ...(event.number ? { number: event.number } : {}),
            ...(settled ? { qrcode: '', pairingCode: '' } : {}),
            ...(event.status === 'CONNECTED' ? { retries: 0 } : {}),
            ...(event.retries !== undefined ? { retries: event.retries } : {}),
          },
          { cause: event.cause, detail: event.reason },
        );
        if (event.reason)
          log.info(
            { whatsappId: row.id, status: event.status, reason: event.reason },
            'session status',
          );
        return;
      }
      case 'health':
        await persist(row.id, {
          ...(event.quality ? { cloudQualityRating: event.quality } : {}),
          ...(event.messagingLimit ? { cloudMessagingLimit: event.messagingLimit } : {}),
          cloudHealthAt: new Date(),
        });
        return;
      case 'message': {
        const extra = event.message.media ? await fetchMedia(session, row, event.message) : {};
        await dispatch({ connection: refOf(row), event, ...extra });
        return;
      }
      default:
        await dispatch({ connection: refOf(row), event });
    }
  };

  const driverOf = (row: ConnectionRow) => {
    const driver = drivers.get(row.provider);
    if (!driver)
      throw new ChannelError(
        'ERR_WAPP_NOT_INITIALIZED',
        `Provider ${row.provider} is not available here`,
      );
    return driver;
  };

  const createSession = (row: ConnectionRow) => {
    const driver = driverOf(row);
    const holder: { session?: ChannelSession } = {};
    const session = driver.createSession({
      connection: withOpenCloudSecrets(options.secrets, row),
      fetch: options.fetch,
      db,
      log: log.child({ whatsappId: row.id, provider: row.provider }),
      emit: async (event) => {
        const current = running.get(row.id)?.connection ?? row;
        await handleEvent(current, holder.session!, event);
      },
      // Only the connection's own company's files: a send names a file, never where it is.
      readMedia: (storedName) => uploads.read(row.companyId, storedName),
    });
    holder.session = session;
    return session as Running['session'];
  };

  // --- Local session lifecycle (always inside serial()) ---

  const startHere = async (row: ConnectionRow, startOptions?: { phoneNumber?: string }) => {
    const session = createSession(row);
    // OPENING from now on, before the write says so: a call meanwhile waits for the start.
    running.set(row.id, { session, connection: { ...row, status: 'OPENING' } });
    await persist(row.id, { status: 'OPENING', qrcode: '', pairingCode: '', retries: 0 });
    try {
      await session.start(startOptions);
    } catch (err) {
      log.error({ err, whatsappId: row.id }, 'session start failed');
      running.delete(row.id);
      await leases.release(row.id);
      await persist(row.id, { status: 'DISCONNECTED', qrcode: '', pairingCode: '' });
      throw err;
    }
  };

  // A logout also reaches a session that is not running: its stored pairing must go all the same.
  const stopHere = async (id: number, mode: 'stop' | 'logout') => {
    const current = running.get(id);
    running.delete(id);
    let session = current?.session;
    if (!session && mode === 'logout') {
      const row = await load(id);
      session = row && drivers.has(row.provider) ? createSession(row) : undefined;
    }
    try {
      await (mode === 'logout' ? session?.logout() : session?.stop());
    } catch (err) {
      log.warn({ err, whatsappId: id }, `session ${mode} failed`);
    }
  };

  // What this node does for an operation on a session it runs (also when another node asks).
  const runHere = async (id: number, op: string, args: unknown): Promise<unknown> => {
    const current = running.get(id);
    switch (op) {
      case 'restart':
      case 'newQr':
        return serial(id, async () => {
          const row = await load(id);
          if (!row)
            throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'The connection no longer exists');
          await stopHere(id, op === 'newQr' ? 'logout' : 'stop');
          await startHere(row, (args as { phoneNumber?: string } | undefined) ?? undefined);
          return null;
        });
      case 'disconnect':
        return serial(id, async () => {
          await stopHere(id, 'logout');
          await leases.release(id);
          await persist(id, { status: 'DISCONNECTED', qrcode: '', pairingCode: '' });
          return null;
        });
      case 'remove':
        return serial(id, async () => {
          await stopHere(id, 'logout');
          await leases.release(id);
          return null;
        });
    }
    if (!current) {
      if (claiming.has(id)) throw sessionMoving();
      throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'The session is not running');
    }
    try {
      return await runOn(current, op, args);
    } catch (error) {
      // A session taken over from a node that died is connecting again: the call waits for it.
      if (
        error instanceof ChannelError &&
        error.code === 'ERR_WAPP_NOT_INITIALIZED' &&
        running.get(id)?.connection.status === 'OPENING'
      )
        throw sessionMoving('The connection is reconnecting on this server');
      throw error;
    }
  };

  const runOn = async (current: Running, op: string, args: unknown): Promise<unknown> => {
    switch (op) {
      case 'send': {
        const result = await current.session.sendMessage(args as SendRequest);
        return {
          providerId: result.providerId,
          timestamp: result.timestamp.toISOString(),
          ack: result.ack,
        };
      }
      case 'delete':
        return current.session.deleteMessage(
          args as Parameters<ChannelSession['deleteMessage']>[0],
        );
      case 'markRead':
        return current.session.markRead(args as Parameters<ChannelSession['markRead']>[0]);
      case 'react':
        return current.session.react(args as ReactRequest);
      case 'presence':
        return current.session.sendPresence(args as Parameters<ChannelSession['sendPresence']>[0]);
      case 'checkNumber': {
        if (!current.session.checkNumber) return { checked: false };
        await current.session.checkNumber((args as { number: string }).number);
        return { checked: true };
      }
      default: {
        const extra = op.startsWith('x:') ? current.session.extras?.[op.slice(2)] : undefined;
        if (!extra)
          throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', `This connection cannot ${op}`);
        return extra(args);
      }
    }
  };
  leases.onRequest(({ whatsappId, op, args }) => runHere(whatsappId, op, args));
  leases.onLost(() => {
    // The locks are gone: stop everything here at once, keeping pairings and statuses, so the node
    // that takes the sessions over resumes them.
    for (const id of [...running.keys()]) void serial(id, () => stopHere(id, 'stop'));
  });

  const fromRemote = (error: unknown): never => {
    if (error instanceof RemoteError && error.code.startsWith('ERR_'))
      throw new ChannelError(error.code as ChannelError['code'], error.message);
    throw error;
  };

  // Takes over a session that should run and that no node runs (its node died): the lock, then a
  // start that resumes its pairing. Its status reads OPENING until the phone is connected again.
  const claim = async (id: number) => {
    if (closing || running.has(id) || claiming.has(id)) return;
    claiming.add(id);
    try {
      if (!(await leases.tryAcquire(id))) return;
      await serial(id, async () => {
        const fresh = await load(id);
        if (
          !fresh ||
          fresh.status === 'DISCONNECTED' ||
          running.has(id) ||
          !drivers.has(fresh.provider)
        ) {
          await leases.release(id);
          return;
        }
        await startHere(fresh);
      });
    } catch (err) {
      log.warn({ err, whatsappId: id }, 'session takeover failed');
    } finally {
      claiming.delete(id);
    }
  };

  const isMoving = (error: unknown) =>
    error instanceof ChannelError && error.code === 'ERR_WAPP_SESSION_MOVING';

  // One try at an operation on a running session: here, on its owner, or (nobody runs a session that
  // should run: its node died) a takeover started here and ERR_WAPP_SESSION_MOVING.
  const routeOnce = async (id: number, op: string, args?: unknown): Promise<unknown> => {
    if (running.has(id)) return runHere(id, op, args);
    const owner = await leases.ownerElsewhere(id);
    if (owner !== null)
      return leases.request({ whatsappId: id, op, args }, owner).catch(fromRemote);
    if (claiming.has(id)) throw sessionMoving();
    const row = await load(id);
    if (!row || row.status === 'DISCONNECTED' || !drivers.has(row.provider))
      throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'The session is not running');
    void claim(id);
    throw sessionMoving();
  };

  // Sends an operation to wherever the session runs, starting it here when nobody runs it. While the
  // session moves between nodes the call waits (up to handoverWaitMs) and goes to the next owner:
  // an owner that dies with the call in flight fails it at once (leases.ts), and it is asked again.
  // Sends stay single: a repeat carries the same idempotency key to the provider.
  const route = async (id: number, op: string, args?: unknown): Promise<unknown> => {
    if (starters.has(op) || op === 'disconnect' || op === 'remove') {
      if (running.has(id)) return runHere(id, op, args);
      if (await leases.tryAcquire(id)) {
        try {
          return await runHere(id, op, args);
        } catch (error) {
          if (!running.has(id)) await leases.release(id);
          throw error;
        }
      }
      const owner = await leases.ownerElsewhere(id);
      // Taken by this node a moment ago (a start in flight): queue behind it.
      if (owner === null) return runHere(id, op, args);
      return leases.request({ whatsappId: id, op, args }, owner).catch(fromRemote);
    }
    const deadline = Date.now() + (options.handoverWaitMs ?? HANDOVER_WAIT_MS);
    for (let pause = 50; ; pause = Math.min(pause * 2, 500)) {
      try {
        return await routeOnce(id, op, args);
      } catch (error) {
        if (!isMoving(error) || closing || Date.now() + pause > deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };

  // Starts every session that should run and that no node runs (start-up, and after a node died).
  const resumeAll = async () => {
    if (closing) return;
    const rows = await db
      .select({ id: whatsapps.id, provider: whatsapps.provider })
      .from(whatsapps)
      .where(ne(whatsapps.status, 'DISCONNECTED' satisfies ConnectionStatus));
    const candidates = rows
      .filter((row) => !running.has(row.id) && drivers.has(row.provider))
      .map((row) => row.id);
    for (const id of await leases.unowned(candidates)) {
      if (closing) return;
      await claim(id);
    }
  };

  return {
    providers: () => [...drivers.keys()],
    hasDriver: (provider: Provider) => drivers.has(provider),
    pairs: (provider: Provider) => drivers.get(provider)?.pairs ?? false,
    isRunningHere: (id: number) => running.has(id),
    // The sessions this node runs, as their statuses stand (metrics).
    sessionsHere: () =>
      [...running.values()].map(({ connection }) => ({
        provider: connection.provider,
        status: connection.status,
      })),

    onEvent(handler: ChannelEventHandler) {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },

    // Restarts the session, keeping its pairing (SPEC "try again").
    restart: (id: number) => route(id, 'restart').then(() => undefined),
    // Forgets the pairing and starts over with a new QR, or a pairing code for phoneNumber.
    newQr: (id: number, phoneNumber?: string) =>
      route(id, 'newQr', phoneNumber ? { phoneNumber } : undefined).then(() => undefined),
    // Unpairs and stops: status DISCONNECTED.
    disconnect: (id: number) => route(id, 'disconnect').then(() => undefined),
    // Before a connection is deleted.
    remove: (id: number) => route(id, 'remove').then(() => undefined),

    async send(id: number, request: SendRequest): Promise<SendResult> {
      // Plain JSON: the answer may have travelled from the node that runs the session.
      const result = (await route(id, 'send', request)) as {
        providerId: string;
        timestamp: string;
        ack?: SendResult['ack'];
      };
      return {
        providerId: result.providerId,
        timestamp: new Date(result.timestamp),
        ack: result.ack,
      };
    },
    deleteMessage: (id: number, request: Parameters<ChannelSession['deleteMessage']>[0]) =>
      route(id, 'delete', request).then(() => undefined),
    markRead: (id: number, request: Parameters<ChannelSession['markRead']>[0]) =>
      route(id, 'markRead', request).then(() => undefined),
    react: (id: number, request: ReactRequest) => route(id, 'react', request).then(() => undefined),
    sendPresence: (id: number, request: Parameters<ChannelSession['sendPresence']>[0]) =>
      route(id, 'presence', request).then(() => undefined),
    // Whether WhatsApp knows the number (see ChannelSession.checkNumber); false when the provider
    // cannot tell.
    checkNumber: (id: number, number: string) =>
      route(id, 'checkNumber', { number }).then((r) => (r as { checked: boolean }).checked),
    // A driver-specific action (the simulator's phone).
    extra: (id: number, op: string, args?: unknown) => route(id, `x:${op}`, args),
    // The company and provider of the connection's session when it runs on this node (as it was
    // started: a new provider takes effect in a new session).
    runningHere: (id: number) => {
      const here = running.get(id)?.connection;
      return here ? { companyId: here.companyId, provider: here.provider } : undefined;
    },

    // Handles an event that reached this node outside a running session (a Cloud API webhook).
    async deliver(row: ConnectionRow, event: ChannelEvent) {
      const session = running.get(row.id)?.session ?? createSession(row);
      await handleEvent(running.get(row.id)?.connection ?? row, session, event);
    },

    async start() {
      await resumeAll();
      const every = options.claimIntervalMs ?? 0;
      if (every > 0) {
        sweep = setInterval(() => {
          resumeAll().catch((err: unknown) => log.warn({ err }, 'session sweep failed'));
        }, every);
        sweep.unref();
      }
    },

    // Stops the sessions of this node, keeping pairings and statuses so a restart resumes them.
    async close() {
      closing = true;
      clearInterval(sweep);
      await Promise.all(
        [...running.keys()].map((id) =>
          serial(id, async () => {
            await stopHere(id, 'stop');
            await leases.release(id);
          }),
        ),
      );
      await leases.close();
    },
  };
};
