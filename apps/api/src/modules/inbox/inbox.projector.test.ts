import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessageView, TicketView } from '@atendi/shared';
import type { DomainEvent, TicketSnapshot } from '../../events/domain-events';
import { whatsapps } from '../../db/schema';
import { createTestApp, makeCompany, type TestContext } from '../../../test/harness';
import type { MessageInput } from '../tickets/inbound/ingest';
import { ingestBatch } from '../tickets/inbound/ingest-batch';
import { loadTicketViews } from '../tickets/core/ticket-views';
import { loadShownMessages, viewMessages } from '../messages/message-views';
import { createInboxProjector, type ProjectorLoads } from './inbox.projector';

// The one projector of ticket and message changes onto the screens: what it emits for a transaction's
// events, to which rooms, in what order, and how often it reads the views to do so.

const at = '2025-03-04T09:00:00.000Z';

const ticketView = (id: number, fields: Partial<TicketView> = {}): TicketView => ({
  id,
  uuid: `uuid-${id}`,
  status: 'pending',
  queueId: null,
  queue: null,
  userId: null,
  user: null,
  contactId: 100 + id,
  contact: {
    id: 100 + id,
    name: `Contacto ${id}`,
    number: `54911000000${id}`,
    email: '',
    profilePicUrl: '',
    urlPicture: '',
    isGroup: false,
    whatsappId: 1,
    createdAt: at,
    updatedAt: at,
  },
  whatsappId: 1,
  whatsapp: { id: 1, name: 'Sim', status: 'CONNECTED' },
  isGroup: false,
  chatbot: false,
  lastMessage: '',
  lastContactMessage: '',
  unreadMessages: 0,
  useIntegration: false,
  promptId: null,
  integrationId: null,
  tags: [],
  slaDueAt: null,
  slaKind: null,
  version: 1,
  createdAt: at,
  updatedAt: at,
  ...fields,
});

const messageView = (id: number, ticketId: number): ChatMessageView => ({
  id,
  ticketId,
  contactId: null,
  body: `mensaje ${id}`,
  fromMe: false,
  read: false,
  mediaType: 'chat',
  mediaUrl: null,
  mediaName: null,
  mediaError: null,
  transcript: null,
  quotedMsgId: null,
  quotedMsg: null,
  isDeleted: false,
  isEdited: false,
  isForwarded: false,
  ack: 0,
  remoteJid: null,
  scheduled: false,
  promptId: null,
  createdAt: at,
  updatedAt: at,
  error: null,
  reactions: [],
});

const snapshot = (fields: Partial<TicketSnapshot> = {}): TicketSnapshot => ({
  status: 'pending',
  userId: null,
  queueId: null,
  whatsappId: 1,
  promptId: null,
  integrationId: null,
  chatbot: false,
  ...fields,
});

const companyId = 7;
const changed = (ticketId: number, before: TicketSnapshot | null): DomainEvent => ({
  type: 'ticket.changed',
  companyId,
  ticketId,
  byUserId: null,
  before,
  after: snapshot(),
});
const created = (messageId: number, ticketId: number, awaitsBot = false): DomainEvent => ({
  type: 'message.created',
  companyId,
  ticketId,
  messageId,
  fromMe: false,
  author: 'contact',
  byUserId: null,
  ...(awaitsBot ? { awaitsBot: true as const } : {}),
});
const updated = (messageId: number, ticketId: number): DomainEvent => ({
  type: 'message.updated',
  companyId,
  ticketId,
  messageId,
  reason: 'ack',
});

type Emitted = { rooms: string[]; channel: string; payload: Record<string, unknown> };

// A projector whose socket layer records what it is asked to emit, and whose reads are counted.
const projectorOver = (tickets: TicketView[], loads: Partial<ProjectorLoads> = {}) => {
  const emitted: Emitted[] = [];
  const leftChats: { ticketId: number; keep: string[] }[] = [];
  const reads = { tickets: [] as number[][], messages: [] as number[][] };
  const projector = createInboxProjector(
    {
      toRooms: (_company, rooms) => ({
        emit: (channel, payload) => {
          emitted.push({ rooms: [...rooms], channel, payload });
        },
      }),
      leaveChat: (_company, ticketId, keep) => {
        leftChats.push({ ticketId, keep: [...keep] });
      },
    },
    {
      tickets: async (ids) => {
        reads.tickets.push(ids);
        return loads.tickets ? loads.tickets(ids) : tickets.filter((view) => ids.includes(view.id));
      },
      messages: async (ids, created) => {
        reads.messages.push(ids);
        return loads.messages
          ? loads.messages(ids, created)
          : ids.map((id) => messageView(id, id < 20 ? 1 : 2));
      },
    },
  );
  return { projector, emitted, leftChats, reads };
};

const summary = ({ channel, payload }: Emitted) =>
  channel === 'appMessage'
    ? `${payload.action} message ${(payload.message as { id: number }).id}`
    : `${payload.action} ticket ${(payload.ticket as { id: number } | undefined)?.id ?? payload.ticketId}`;

describe('the inbox projector', () => {
  it('loads the views once for all the changes of a transaction, tickets first, then messages', async () => {
    const { projector, emitted, reads } = projectorOver([ticketView(1), ticketView(2)]);
    await projector.project([
      changed(1, null),
      created(11, 1),
      created(12, 1),
      created(21, 2),
      // Updated in the transaction that created it: its create already says so.
      updated(11, 1),
    ]);
    expect(reads).toEqual({ tickets: [[1, 2]], messages: [[11, 12, 21]] });
    expect(emitted.map(summary)).toEqual([
      'update ticket 1',
      'update ticket 2',
      'create message 11',
      'create message 12',
      'create message 21',
    ]);
    // Every room that shows the ticket: its chat, its list slice and its notifications.
    expect(emitted[0].rooms).toEqual([
      'ticket-1',
      'tickets-pending-all',
      'tickets-pending-noqueue',
      'notification-all',
      'notification-noqueue',
    ]);
    expect(emitted[2].payload).toMatchObject({
      ticket: { id: 1 },
      contact: { id: 101 },
      message: { id: 11 },
    });
  });

  it('says what else changed on a ticket (its notes, its insight), so screens read only what changed', async () => {
    const { projector, emitted } = projectorOver([ticketView(1), ticketView(2)]);
    const detail = (ticketId: number, what: 'notes' | 'insight' | 'tags'): DomainEvent => ({
      type: 'ticket.updated',
      companyId,
      ticketId,
      detail: what,
    });
    await projector.project([
      detail(1, 'notes'),
      detail(1, 'insight'),
      detail(1, 'notes'),
      created(21, 2),
    ]);
    const tickets = emitted.filter(({ channel }) => channel === 'ticket');
    expect(
      tickets.map(({ payload }) => [(payload.ticket as { id: number }).id, payload.changed]),
    ).toEqual([
      [1, ['insight', 'notes']],
      // A message's update of its ticket says nothing else changed.
      [2, undefined],
    ]);
  });

  it('tells a message update without its ticket, after the create of a transaction committed before', async () => {
    let release = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const { projector, emitted } = projectorOver([ticketView(1)], {
      messages: async (ids) => {
        // The create's read is the slower one.
        if (first) {
          first = false;
          await slow;
        }
        return ids.map((id) => messageView(id, 1));
      },
    });
    const create = projector.project([created(11, 1)]);
    const update = projector.project([updated(11, 1)]);
    release();
    await Promise.all([create, update]);
    expect(emitted.map(summary)).toEqual([
      'update ticket 1',
      'create message 11',
      'update message 11',
    ]);
  });

  it('keeps a message that awaits the queue bot off the screens until its turn, then shows it where the bot put it', async () => {
    const routed = ticketView(1, { queueId: 5, version: 3 });
    const { projector, emitted, reads } = projectorOver([routed]);
    await projector.project([changed(1, null), created(11, 1, true)]);
    expect(emitted).toEqual([]);
    expect(reads).toEqual({ tickets: [], messages: [] });

    await projector.project([
      changed(1, snapshot()),
      {
        type: 'message.routed',
        companyId,
        ticketId: 1,
        messageId: 11,
        ticketCreated: true,
      },
    ]);
    // No screen showed it without a queue: no slice is told to drop it.
    expect(emitted.map(summary)).toEqual(['update ticket 1', 'create message 11']);
    expect(emitted[0].rooms).toContain('tickets-pending-queue-5');
  });

  it('tells the slices a ticket left to drop it, and takes its chat from those who may no longer see it', async () => {
    const moved = ticketView(1, { queueId: 6, version: 9 });
    const { projector, emitted, leftChats } = projectorOver([moved]);
    await projector.project([changed(1, snapshot({ queueId: 5 }))]);
    expect(leftChats).toEqual([{ ticketId: 1, keep: ['perm-tickets-manager:showall', 'queue-6'] }]);
    expect(emitted).toEqual([
      {
        rooms: ['tickets-pending-queue-5', 'notification-queue-5'],
        channel: 'ticket',
        payload: { action: 'delete', ticketId: 1, version: 9 },
      },
      expect.objectContaining({ channel: 'ticket', payload: { action: 'update', ticket: moved } }),
    ]);
  });

  it('tells a deleted ticket to its chat and the slices it was in', async () => {
    const { projector, emitted, reads } = projectorOver([]);
    await projector.project([
      {
        type: 'ticket.deleted',
        companyId,
        ticketId: 4,
        before: snapshot({ status: 'open', userId: 3, queueId: 2 }),
      },
    ]);
    expect(reads.tickets).toEqual([]);
    expect(emitted).toEqual([
      {
        rooms: [
          'ticket-4',
          'tickets-open-all',
          'tickets-open-queue-2',
          'tickets-open-user-3',
          'notification-all',
          'notification-queue-2',
          'notification-user-3',
        ],
        channel: 'ticket',
        payload: { action: 'delete', ticketId: 4 },
      },
    ]);
  });
});

describe('the inbox projector on a real store', () => {
  let t: TestContext;
  let company: number;
  let whatsappId: number;

  beforeAll(async () => {
    t = await createTestApp();
    company = (await makeCompany(t.db)).company.id;
    whatsappId = (
      await t.db
        .insert(whatsapps)
        .values({ companyId: company, name: 'Batch', provider: 'simulator', status: 'CONNECTED' })
        .returning()
    )[0].id;
  });
  afterAll(() => t.close());

  it('reads the tickets and messages of an inbound batch once, whatever their number', async () => {
    let ticketReads = 0;
    let messageReads = 0;
    const { deps } = t.app;
    const emitted: Emitted[] = [];
    const projector = createInboxProjector(
      {
        toRooms: (_company, rooms) => ({
          emit: (channel, payload) => {
            emitted.push({ rooms: [...rooms], channel, payload });
          },
        }),
        leaveChat: () => undefined,
      },
      {
        tickets: (ids) => {
          ticketReads += 1;
          return loadTicketViews(deps.db, ids);
        },
        messages: async (ids) => {
          messageReads += 1;
          return viewMessages(deps, await loadShownMessages(deps.db, ids));
        },
      },
    );
    deps.events.afterCommit((events) =>
      projector.project(events.filter((event) => event.companyId === company)),
    );
    // Typed on the connected phone: no bot waits on them, so the screens hear each at once.
    const typed = (to: string, body: string, n: number): MessageInput => ({
      connection: { id: whatsappId, companyId: company, provider: 'simulator' },
      event: {
        type: 'message',
        message: {
          providerId: `PROJECTED-${n}`,
          from: to,
          body,
          mediaType: 'chat',
          isGroup: false,
          fromMe: true,
          timestamp: new Date(),
        },
      },
    });
    const results = await ingestBatch(deps, [
      typed('5491161000001', 'uno', 1),
      typed('5491161000002', 'dos', 2),
      typed('5491161000001', 'tres', 3),
      typed('5491161000002', 'cuatro', 4),
      typed('5491161000001', 'cinco', 5),
    ]);
    expect(results.every((result) => result && !result.awaitsBot)).toBe(true);
    expect({ ticketReads, messageReads }).toEqual({ ticketReads: 1, messageReads: 1 });
    const [first, second] = [results[0]!.ticket.id, results[1]!.ticket.id];
    expect(emitted.map(summary)).toEqual([
      `update ticket ${first}`,
      `update ticket ${second}`,
      ...results.map((result) => `create message ${result!.message.id}`),
    ]);
    expect(emitted.at(-1)?.payload).toMatchObject({
      message: { body: 'cinco', fromMe: true },
      ticket: { id: first, lastMessage: 'cinco' },
    });
  });
});
