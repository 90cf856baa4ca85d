import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type { FastifyBaseLogger } from 'fastify';
import { ticketStatuses, type Profile } from '@atendi/shared';
import type { AccessClaims, TokenService } from '../platform/tokens';

// The per-company event channels of SPEC §7; the wire name is `company-{id}-{channel}`.
export type CompanyChannel =
  | 'auth'
  | 'user'
  | 'settings'
  | 'company'
  | 'plan'
  | 'subscription'
  | 'invoice'
  | 'help'
  | 'whatsapp'
  | 'whatsappSession'
  | 'appMessage'
  | 'ticket'
  | 'contact'
  | 'queue'
  | 'ContactList'
  | 'ContactListItem'
  | 'tag'
  | 'quickemessage'
  | 'schedule'
  | 'campaign'
  | 'announcement'
  | 'file'
  | 'prompt'
  | 'queueIntegration';

export type EventPayload = { action: string } & Record<string, unknown>;

export type SocketIdentity = {
  userId: number;
  companyId: number;
  profile: Profile;
  isSuper: boolean;
  // The login the socket was opened with (the token's `sid`).
  sessionId: string;
};

// Ticket lists and notifications are split by who may see a ticket (see TicketRoomResolver).
type Room =
  | 'company'
  | `user-${number}`
  | `ticket-${number}`
  // One per login, so ending a session can drop exactly its sockets.
  | `session-${string}`
  | `tickets-${string}`
  | `notification-${string}`;

const roomName = (companyId: number, room: Room) =>
  room === 'company' ? `company-${companyId}` : `company-${companyId}-${room}`;

// Decides whether a socket may join a ticket's room; the tickets module installs the real rule.
export type TicketRoomGuard = (identity: SocketIdentity, ticketId: number) => Promise<boolean>;

// The list rooms a socket joins for a ticket status ('tickets-…') or for notifications
// ('notification-…'): one per slice of tickets it may see (all, a queue, no queue, its own). The
// tickets module installs the real rule and emits each ticket to the slices it belongs to, so a
// ticket of a queue reaches only sockets allowed to see that queue.
export type TicketRoomResolver = (
  identity: SocketIdentity,
  list: { kind: 'tickets'; status: string } | { kind: 'notification' },
) => Promise<(`tickets-${string}` | `notification-${string}`)[]>;

export type Realtime = ReturnType<typeof createRealtime>;

export const createRealtime = (options: {
  tokens: TokenService;
  corsOrigin: string[];
  log: FastifyBaseLogger;
  redisUrl?: string;
  onUserStatus?: (identity: SocketIdentity, online: boolean) => Promise<void>;
  // Whether the token's session was not ended since the token was issued.
  sessionLive?: (claims: AccessClaims) => Promise<boolean>;
}) => {
  let io: Server | null = null;
  let redis: Redis[] = [];
  let ticketGuard: TicketRoomGuard = async () => false;
  let roomResolver: TicketRoomResolver = async () => [];
  let closing = false;

  // Every emit names exactly one company: its rooms and its event name share that id.
  const emitTo = (
    companyId: number,
    room: Room,
    channel: CompanyChannel,
    payload: EventPayload,
  ) => {
    io?.to(roomName(companyId, room)).emit(`company-${companyId}-${channel}`, payload);
  };

  // A failed status write is logged: left unhandled, the rejection would end the process.
  const reportStatus = (identity: SocketIdentity, online: boolean) => {
    options.onUserStatus?.(identity, online).catch((err: unknown) => {
      options.log.warn({ err, userId: identity.userId }, 'user status update failed');
    });
  };

  const onConnection = (socket: Socket) => {
    const identity = socket.data as SocketIdentity;
    const { companyId, userId } = identity;
    void socket.join([
      roomName(companyId, 'company'),
      roomName(companyId, `user-${userId}`),
      roomName(companyId, `session-${identity.sessionId}`),
    ]);
    reportStatus(identity, true);

    const joinList = async (list: Parameters<TicketRoomResolver>[1]) => {
      const rooms = await roomResolver(identity, list).catch((err: unknown) => {
        options.log.warn({ err, userId }, 'ticket rooms could not be resolved');
        return [];
      });
      if (rooms.length) await socket.join(rooms.map((room) => roomName(companyId, room)));
    };
    const leaveList = (prefix: string) => {
      for (const room of socket.rooms) if (room.startsWith(prefix)) void socket.leave(room);
    };
    // Each join may carry an acknowledgement: the client learns when the rooms are joined, and
    // reloads what it showed before, so nothing emitted in between is missed.
    const done = (ack: unknown) => {
      if (typeof ack === 'function') (ack as (joined: boolean) => void)(true);
    };
    socket.on('joinNotification', (ack: unknown) => {
      void joinList({ kind: 'notification' }).then(() => done(ack));
    });
    socket.on('leaveNotification', () => leaveList(`company-${companyId}-notification-`));
    socket.on('joinTickets', (status: unknown, ack: unknown) => {
      if (typeof status === 'string' && (ticketStatuses as readonly string[]).includes(status)) {
        void joinList({ kind: 'tickets', status }).then(() => done(ack));
      }
    });
    socket.on('leaveTickets', (status: unknown) => {
      if (typeof status === 'string' && (ticketStatuses as readonly string[]).includes(status))
        leaveList(`company-${companyId}-tickets-${status}-`);
    });
    socket.on('joinChatBox', async (ticketId: unknown, ack: unknown) => {
      const id = Number(ticketId);
      if (!Number.isInteger(id) || id <= 0) return;
      if (await ticketGuard(identity, id).catch(() => false)) {
        await socket.join(roomName(companyId, `ticket-${id}`));
        done(ack);
      }
    });
    socket.on('leaveChatBox', (ticketId: unknown) => {
      const id = Number(ticketId);
      if (Number.isInteger(id)) void socket.leave(roomName(companyId, `ticket-${id}`));
    });
    socket.on('userStatus', () => reportStatus(identity, true));
    socket.on('disconnect', async () => {
      // Shutting down: the other nodes (if any) still know who is online; asking them now would send
      // through a Redis connection that is about to close.
      if (closing) return;
      try {
        const remaining = await io?.in(roomName(companyId, `user-${userId}`)).fetchSockets();
        if (!remaining?.length) reportStatus(identity, false);
      } catch (err) {
        // With the Redis adapter the lookup can time out; the user then stays as last reported.
        options.log.warn({ err, userId }, 'online check on disconnect failed');
      }
    });
  };

  return {
    attach(server: HttpServer) {
      io = new Server(server, {
        cors: { origin: options.corsOrigin, credentials: true },
        pingInterval: 18_000,
        pingTimeout: 18_000,
      });
      if (options.redisUrl) {
        const pub = new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
        const sub = pub.duplicate();
        redis = [pub, sub];
        io.adapter(createAdapter(pub, sub));
      }
      io.use(async (socket, next) => {
        const raw = socket.handshake.query.token ?? socket.handshake.auth?.token;
        const token = Array.isArray(raw) ? raw[0] : raw;
        if (typeof token !== 'string' || !token) return next(new Error('ERR_SESSION_EXPIRED'));
        const claims = await options.tokens.verifyAccess(token);
        // The client reloads (and so refreshes its session) when told the token is no good.
        if (typeof claims === 'string') return next(new Error('ERR_INVALID_TOKEN'));
        // An ended session cannot be refreshed into life: the client signs out.
        try {
          if (options.sessionLive && !(await options.sessionLive(claims))) {
            return next(new Error('ERR_SESSION_EXPIRED'));
          }
        } catch (err) {
          options.log.warn({ err, userId: claims.id }, 'session check failed');
          return next(new Error('ERR_INTERNAL_SERVER_ERROR'));
        }
        const identity: SocketIdentity = {
          userId: claims.id,
          companyId: claims.companyId,
          profile: claims.profile,
          isSuper: claims.super,
          sessionId: claims.sid,
        };
        socket.data = identity;
        next();
      });
      io.on('connection', onConnection);
    },
    setTicketGuard(guard: TicketRoomGuard) {
      ticketGuard = guard;
    },
    setTicketRoomResolver(resolver: TicketRoomResolver) {
      roomResolver = resolver;
    },
    // One emit to several rooms of one company: a socket in more than one of them hears it once.
    toRooms: (companyId: number, rooms: Exclude<Room, 'company'>[]) => ({
      emit: (channel: CompanyChannel, payload: EventPayload) => {
        if (!rooms.length) return;
        io?.to(rooms.map((room) => roomName(companyId, room))).emit(
          `company-${companyId}-${channel}`,
          payload,
        );
      },
    }),
    // SPEC §7 `wa:typing`: the one event without a company prefix; it only ever goes to one
    // company's ticket room, so it cannot reach another company's sockets either.
    typing: (
      companyId: number,
      ticketId: number,
      payload: { ticketId: number; chatJid: string; who: string; typing: boolean },
    ) => io?.to(roomName(companyId, `ticket-${ticketId}`)).emit('wa:typing', payload),
    toCompany: (companyId: number) => ({
      emit: (channel: CompanyChannel, payload: EventPayload) =>
        emitTo(companyId, 'company', channel, payload),
    }),
    // Platform-wide records (announcements, plans, helps): each company hears it on its own channel.
    toCompanies: (companyIds: number[]) => ({
      emit: (channel: CompanyChannel, payload: EventPayload) => {
        for (const companyId of companyIds) emitTo(companyId, 'company', channel, payload);
      },
    }),
    // Drops the sockets opened with these sessions, on every node; the client learns it from the
    // server-side disconnect and finds its session gone when it tries to refresh.
    endSessions(sessions: { companyId: number; sessionId: string }[]) {
      for (const { companyId, sessionId } of sessions) {
        io?.in(roomName(companyId, `session-${sessionId}`)).disconnectSockets(true);
      }
    },
    toUser: (companyId: number, userId: number) => ({
      emit: (channel: CompanyChannel, payload: EventPayload) =>
        emitTo(companyId, `user-${userId}`, channel, payload),
    }),
    toRoom: (companyId: number, room: Exclude<Room, 'company'>) => ({
      emit: (channel: CompanyChannel, payload: EventPayload) =>
        emitTo(companyId, room, channel, payload),
    }),
    async close() {
      closing = true;
      if (io) {
        // Not io.close(): that would also close the HTTP server, which Fastify owns.
        io.disconnectSockets(true);
        io.engine.close();
      }
      io = null;
      // Stop hearing the other nodes first: the adapter answers their requests (who is online) by
      // publishing without awaiting, and an answer sent while the publisher closes would be an
      // unhandled rejection. Then let answers already under way go out before quitting.
      const [pub, sub] = redis;
      sub?.removeAllListeners('messageBuffer');
      sub?.removeAllListeners('pmessageBuffer');
      await sub?.quit().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await pub?.quit().catch(() => undefined);
    },
  };
};
