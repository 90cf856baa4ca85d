import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type { FastifyBaseLogger } from 'fastify';
import {
  can,
  permissionTable,
  ticketStatuses,
  type Permission,
  type Profile,
} from '@atendi/shared';
import type { AccessClaims, TokenService } from '../platform/tokens';

// The per-company event channels of SPEC §7 (the wire name is `company-{id}-{channel}`), each with
// who hears it: those whose HTTP read of the same record succeeds. 'company': every user of the
// company; a permission: the profiles holding it (what the record's GET route declares in
// `config.access.permission`); 'ticket': the slices and chat of the ticket, resolved by the tickets
// module (canSeeTicket); 'self': the user's own sockets. toCompany() sends to these readers.
export const channelReaders = {
  auth: 'self',
  // And the user's own sockets (GET /users/{id} answers one's own record).
  user: 'users:manage',
  // A super-only key goes to super users only (settings.service).
  settings: 'company',
  // Another company's record goes to super users only (companies.service).
  company: 'company',
  plan: 'company',
  subscription: 'company',
  invoice: 'company',
  help: 'company',
  // Views without secrets (tokens are read over HTTP by those who edit connections).
  whatsapp: 'company',
  whatsappSession: 'company',
  appMessage: 'ticket',
  ticket: 'ticket',
  contact: 'company',
  queue: 'company',
  ContactList: 'campaigns:manage',
  ContactListItem: 'campaigns:manage',
  tag: 'company',
  // A personal answer goes to its author only (quick-messages.service).
  quickemessage: 'company',
  schedule: 'company',
  campaign: 'campaigns:manage',
  // An inactive one goes to super users only; the others hear it is gone (announcements.service).
  announcement: 'company',
  file: 'company',
  prompt: 'prompts:manage',
  queueIntegration: 'integrations:manage',
  // The knowledge base's documents, their status and progress (issue 40).
  knowledge: 'knowledge:manage',
  // Who is online, away or offline (GET /users/list answers everyone's presence).
  presence: 'company',
  // An SLA deadline near or missed: to the agent holding the conversation, or its queue's members.
  sla: 'self',
} as const satisfies Record<string, Permission | 'company' | 'ticket' | 'self'>;

export type CompanyChannel = keyof typeof channelReaders;

// engine.io sends a socket's waiting packets in a loop, a WebSocket frame each, and every frame is a
// write of its own to the network (a system call: on a busy inbox, 2-3 a message for each agent's
// socket, a large part of the API's time in writev). Corking the connection's TCP socket around the loop
// sends them in one write. The first packet of a burst goes at once; the ones emitted meanwhile wait
// for its write (engine.io) and then go together. `ws` keeps its TCP socket as `_socket`; without
// one (another transport) nothing changes.
type EngineTransport = {
  name: string;
  send: (packets: unknown[]) => void;
  socket?: { _socket?: { cork: () => void; uncork: () => void } };
};
const corkTransport = (transport: EngineTransport) => {
  if (transport.name !== 'websocket') return;
  const send = transport.send.bind(transport);
  transport.send = (packets) => {
    const tcp = transport.socket?._socket;
    if (packets.length < 2 || !tcp) return send(packets);
    tcp.cork();
    try {
      send(packets);
    } finally {
      tcp.uncork();
    }
  };
};
const coalesceWrites = (connection: {
  transport: EngineTransport;
  on: (event: 'upgrade', listener: (transport: EngineTransport) => void) => unknown;
}) => {
  corkTransport(connection.transport);
  connection.on('upgrade', corkTransport);
};
type Readers = typeof channelReaders;

// The channels toCompany() may send: the others name their rooms (toRooms, toUser).
type BroadcastChannel = {
  [C in CompanyChannel]: Readers[C] extends 'ticket' | 'self' ? never : C;
}[CompanyChannel];

type EventPayload = { action: string } & Record<string, unknown>;

export type SocketIdentity = {
  userId: number;
  companyId: number;
  profile: Profile;
  isSuper: boolean;
  // The login the socket was opened with (the token's `sid`).
  sessionId: string;
  // The user's queues when the socket connected; a change of them drops the socket.
  queueIds: readonly number[];
  // Its tab is in the background (the client's `presence` report); unknown counts as in front.
  hidden?: boolean;
};

// Ticket lists and notifications are split by who may see a ticket (see TicketRoomResolver).
type Room =
  | 'company'
  | `user-${number}`
  | `ticket-${number}`
  // One per login, so ending a session can drop exactly its sockets.
  | `session-${string}`
  | `tickets-${string}`
  | `notification-${string}`
  // Who may read a permission's records, super users, and a queue's members: joined at connection
  // from the user's rights as the database holds them then.
  | `perm-${Permission}`
  | 'super'
  | `queue-${number}`;

export const permissionRoom = <P extends Permission>(permission: P) =>
  `perm-${permission}` as const;

const readersRoom = (channel: BroadcastChannel): Room => {
  const readers: Permission | 'company' = channelReaders[channel];
  return readers === 'company' ? 'company' : permissionRoom(readers);
};

// What a socket may read, as the rooms it joins at connection: every permission its profile holds,
// super, its queues (emits name these rooms; the tickets module's chat rule too).
export const rightsRooms = (
  identity: Pick<SocketIdentity, 'profile' | 'isSuper' | 'queueIds'>,
): Room[] => [
  ...(Object.keys(permissionTable) as Permission[])
    .filter((permission) => can(identity, permission))
    .map(permissionRoom),
  ...(identity.isSuper ? (['super'] as const) : []),
  ...identity.queueIds.map((id): Room => `queue-${id}`),
];

const roomName = (companyId: number, room: Room) =>
  room === 'company' ? `company-${companyId}` : `company-${companyId}-${room}`;

// Decides whether a socket may join a ticket's room; the tickets module installs the real rule.
type TicketRoomGuard = (identity: SocketIdentity, ticketId: number) => Promise<boolean>;

// The list rooms a socket joins for a ticket status ('tickets-…') or for notifications
// ('notification-…'): one per slice of tickets it may see (all, a queue, no queue, its own). The
// tickets module installs the real rule and the inbox projector (modules/inbox) emits each ticket to
// the slices it belongs to, so a ticket of a queue reaches only sockets allowed to see that queue.
export type TicketRoomResolver = (
  identity: SocketIdentity,
  list: { kind: 'tickets'; status: string } | { kind: 'notification' },
) => Promise<(`tickets-${string}` | `notification-${string}`)[]>;

// What a socket's life tells presence (modules/presence): they never reject.
type PresenceHooks = {
  connected: (identity: SocketIdentity, socketId: string) => Promise<void>;
  disconnected: (identity: SocketIdentity, socketId: string) => Promise<void>;
  idle: (identity: SocketIdentity, socketId: string, idle: boolean) => Promise<void>;
};

export type Realtime = ReturnType<typeof createRealtime>;
export type RealtimeRoom = Room;

export const createRealtime = (options: {
  tokens: TokenService;
  corsOrigin: string[];
  log: FastifyBaseLogger;
  redisUrl?: string;
  // Who the token's user is now (profile, company, queues read from the database, not the token's
  // claims); null when the session has ended or the user is gone.
  identify: (claims: AccessClaims) => Promise<SocketIdentity | null>;
}) => {
  let io: Server | null = null;
  let redis: Redis[] = [];
  let ticketGuard: TicketRoomGuard = async () => false;
  let roomResolver: TicketRoomResolver = async () => [];
  let presence: PresenceHooks | undefined;
  let closing = false;

  // Every emit names exactly one company: its rooms and its event name share that id.
  const emitTo = (
    companyId: number,
    rooms: Room[],
    channel: CompanyChannel,
    payload: EventPayload,
    except: Room[] = [],
  ) => {
    if (!io || !rooms.length) return;
    const names = rooms.map((room) => roomName(companyId, room));
    const target = except.length
      ? io.to(names).except(except.map((room) => roomName(companyId, room)))
      : io.to(names);
    target.emit(`company-${companyId}-${channel}`, payload);
  };

  const onConnection = (socket: Socket) => {
    const identity = socket.data as SocketIdentity;
    const { companyId, userId } = identity;
    void socket.join(
      [
        'company' as const,
        `user-${userId}` as const,
        `session-${identity.sessionId}` as const,
        ...rightsRooms(identity),
      ].map((room) => roomName(companyId, room)),
    );
    void presence?.connected(identity, socket.id);

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
    // The tab's activity: `{ idle: true }` after a while without input, `{ idle: false }` back; and
    // `{ hidden }` as the tab goes to the background and back (a chat open in a hidden tab is not
    // being looked at: chatViewers).
    socket.on('presence', (report: unknown) => {
      const { idle, hidden } = (report ?? {}) as { idle?: unknown; hidden?: unknown };
      if (typeof idle === 'boolean') void presence?.idle(identity, socket.id, idle);
      if (typeof hidden === 'boolean') identity.hidden = hidden;
    });
    socket.on('disconnect', () => {
      // Shutting down: the node forgets its sockets at once (presence.stop).
      if (closing) return;
      void presence?.disconnected(identity, socket.id);
    });
  };

  return {
    // Sockets connected to this node (metrics).
    socketsHere: () => io?.engine.clientsCount ?? 0,
    attach(server: HttpServer) {
      io = new Server(server, {
        cors: { origin: options.corsOrigin, credentials: true },
        pingInterval: 18_000,
        pingTimeout: 18_000,
      });
      io.engine.on('connection', coalesceWrites);
      if (options.redisUrl) {
        const pub = new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
        const sub = pub.duplicate();
        // Redis down or restarting: ioredis reconnects; an unheard 'error' would end the process.
        for (const client of [pub, sub])
          client.on('error', (error: Error) =>
            options.log.warn({ err: error.message }, 'redis (live events) connection error'),
          );
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
        // The rights come from the database: a token issued before a demotion carries the old ones.
        let identity: SocketIdentity | null;
        try {
          identity = await options.identify(claims);
        } catch (err) {
          options.log.warn({ err, userId: claims.id }, 'session check failed');
          return next(new Error('ERR_INTERNAL_SERVER_ERROR'));
        }
        // An ended session cannot be refreshed into life: the client signs out.
        if (!identity) return next(new Error('ERR_SESSION_EXPIRED'));
        socket.data = identity;
        next();
      });
      io.on('connection', onConnection);
    },
    setTicketGuard(guard: TicketRoomGuard) {
      ticketGuard = guard;
    },
    setPresence(hooks: PresenceHooks) {
      presence = hooks;
    },
    setTicketRoomResolver(resolver: TicketRoomResolver) {
      roomResolver = resolver;
    },
    // One emit to several rooms of one company: a socket in more than one of them hears it once.
    toRooms: (companyId: number, rooms: Exclude<Room, 'company'>[]) => ({
      emit: (channel: CompanyChannel, payload: EventPayload) =>
        emitTo(companyId, rooms, channel, payload),
    }),
    // SPEC §7 `wa:typing`: the one event without a company prefix; it only ever goes to one
    // company's ticket room, so it cannot reach another company's sockets either.
    typing: (
      companyId: number,
      ticketId: number,
      payload: { ticketId: number; chatJid: string; who: string; typing: boolean },
    ) => io?.to(roomName(companyId, `ticket-${ticketId}`)).emit('wa:typing', payload),
    // To the channel's readers (channelReaders) in the company; `alsoUser` adds one user's own
    // sockets, `except` leaves out whoever is in those rooms.
    toCompany: (companyId: number, options: { alsoUser?: number; except?: Room[] } = {}) => ({
      emit: (channel: BroadcastChannel, payload: EventPayload) =>
        emitTo(
          companyId,
          [
            readersRoom(channel),
            ...(options.alsoUser ? [`user-${options.alsoUser}` as const] : []),
          ],
          channel,
          payload,
          options.except,
        ),
    }),
    // Platform-wide records (announcements, plans, helps): each company hears it on its own channel.
    toCompanies: (companyIds: number[], options: { except?: Room[] } = {}) => ({
      emit: (channel: BroadcastChannel, payload: EventPayload) => {
        for (const companyId of companyIds)
          emitTo(companyId, [readersRoom(channel)], channel, payload, options.except);
      },
    }),
    // Drops the sockets opened with these sessions, on every node; the client learns it from the
    // server-side disconnect and finds its session gone when it tries to refresh.
    endSessions(sessions: { companyId: number; sessionId: string }[]) {
      for (const { companyId, sessionId } of sessions) {
        io?.in(roomName(companyId, `session-${sessionId}`)).disconnectSockets(true);
      }
    },
    // Takes out of a ticket's chat, on every node, the sockets in none of `keep` (the rooms of those
    // who may still see the ticket).
    leaveChat(companyId: number, ticketId: number, keep: Exclude<Room, 'company'>[]) {
      const chat = roomName(companyId, `ticket-${ticketId}`);
      io?.in(chat)
        .except(keep.map((room) => roomName(companyId, room)))
        .socketsLeave(chat);
    },
    // The users who have the ticket's chat open now in a tab in front (a socket of theirs joined it:
    // joinChatBox, and its tab is not hidden), on every node: Web Push leaves them out (modules/push).
    async chatViewers(companyId: number, ticketId: number): Promise<number[]> {
      if (!io) return [];
      const sockets = await io.in(roomName(companyId, `ticket-${ticketId}`)).fetchSockets();
      const looking = sockets
        .map((socket) => socket.data as SocketIdentity)
        .filter((data) => !data.hidden);
      return [...new Set(looking.map((data) => data.userId))];
    },
    // Drops a user's sockets on every node after a change of their rights (profile, queues,
    // company, deletion): the client refreshes and reconnects, and the handshake reads the new ones.
    dropUser(companyId: number, userId: number) {
      io?.in(roomName(companyId, `user-${userId}`)).disconnectSockets(true);
    },
    // Drops every socket of a company that is gone; its users' sessions went with it.
    dropCompany(companyId: number) {
      io?.in(roomName(companyId, 'company')).disconnectSockets(true);
    },
    toUser: (companyId: number, userId: number) => ({
      emit: (channel: CompanyChannel, payload: EventPayload) =>
        emitTo(companyId, [`user-${userId}`], channel, payload),
    }),
    toRoom: (companyId: number, room: Exclude<Room, 'company'>) => ({
      emit: (channel: CompanyChannel, payload: EventPayload) =>
        emitTo(companyId, [room], channel, payload),
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
