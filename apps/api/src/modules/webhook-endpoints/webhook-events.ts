import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { WebhookEventType } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { preparedPer } from '../../db/prepared';
import {
  campaigns,
  contacts,
  messages,
  tags,
  ticketTags,
  tickets,
  webhookDeliveries,
  webhookEndpoints,
  whatsapps,
} from '../../db/schema';
import type { DomainEvent, EventOf } from '../../events/domain-events';
import { enqueueJobs } from '../../jobs/queue';
import { webhookDeliveryQueue } from './webhook-queue';

// What the company's webhook endpoints hear of (issue 38), from the domain events: recorders that run
// in the transaction that raised them, so a delivery is stored with the change that it tells of (never
// lost, never told of a change that rolled back). Each delivery's body is built there, from the rows as
// the change left them: every attempt and replay sends the same body under the same webhook-id.
//
// Cost when a company has no endpoint for what happened: one prepared, indexed read of its endpoints
// per transaction, nothing else.

type Deps = Pick<AppDeps, 'uploads'>;

// What the rows a body needs are, gathered for all of a transaction's events before one read each.
type Needs = {
  tickets: Set<number>;
  messages: Set<number>;
  contacts: Set<number>;
  connections: Set<number>;
  campaigns: Set<number>;
};
type Loaded = {
  tickets: Map<number, TicketPayload>;
  messages: Map<number, MessagePayload>;
  contacts: Map<number, Record<string, unknown>>;
  connections: Map<number, Record<string, unknown>>;
  campaigns: Map<number, Record<string, unknown>>;
};

// One event for the endpoints of a company: its type, what its deliveries are ordered by (a
// ticket's, a contact's…), and its data once the rows are read.
type Pending = {
  companyId: number;
  type: WebhookEventType;
  orderKey: string;
  data: (loaded: Loaded) => Record<string, unknown> | null;
};

type TicketPayload = ReturnType<typeof ticketPayload>;
type MessagePayload = ReturnType<ReturnType<typeof messagePayload>>;

const ticketPayload = (
  row: typeof tickets.$inferSelect,
  tagsOf: { id: number; name: string }[],
) => ({
  id: row.id,
  uuid: row.uuid,
  status: row.status,
  userId: row.userId,
  queueId: row.queueId,
  whatsappId: row.whatsappId,
  contactId: row.contactId,
  isGroup: row.isGroup,
  promptId: row.promptId,
  integrationId: row.integrationId,
  lastMessage: row.lastMessage,
  tags: tagsOf,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const messagePayload = (deps: Deps) => (row: typeof messages.$inferSelect) => ({
  id: row.id,
  ticketId: row.ticketId,
  contactId: row.contactId,
  whatsappId: row.whatsappId,
  fromMe: row.fromMe,
  body: row.body,
  mediaType: row.mediaType,
  mediaUrl: row.mediaUrl ? deps.uploads.urlFor(row.companyId, row.mediaUrl) : null,
  ack: row.ack,
  isDeleted: row.isDeleted,
  isEdited: row.isEdited,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

// --- Which webhook events a domain event is ---

const snapshotOf = (before: EventOf<'ticket.changed'>['before']) =>
  before && {
    status: before.status,
    userId: before.userId,
    queueId: before.queueId,
    whatsappId: before.whatsappId,
  };

// A ticket's lifecycle change, as the events a receiver tells apart: created; given to an agent
// (assigned); moved from a queue, agent or connection to another (transferred, also assigned when it
// lands on an agent); resolved; reopened. Anything else (open ↔ waiting, a queue first chosen, an AI
// agent or integration taking or leaving it) is ticket.updated with what changed.
export const ticketChangeTypes = (
  event: Pick<EventOf<'ticket.changed'>, 'before' | 'after'>,
): { type: WebhookEventType; change?: string }[] => {
  const { before, after } = event;
  if (!before)
    return [
      { type: 'ticket.created' },
      ...(after.userId !== null ? [{ type: 'ticket.assigned' as const }] : []),
    ];
  const types: { type: WebhookEventType; change?: string }[] = [];
  if (after.userId !== null && after.userId !== before.userId)
    types.push({ type: 'ticket.assigned' });
  if (
    (before.queueId !== null && after.queueId !== before.queueId) ||
    (before.userId !== null && after.userId !== null && after.userId !== before.userId) ||
    before.whatsappId !== after.whatsappId
  )
    types.push({ type: 'ticket.transferred' });
  if (after.status === 'closed' && before.status !== 'closed')
    types.push({ type: 'ticket.resolved' });
  if (before.status === 'closed' && after.status !== 'closed')
    types.push({ type: 'ticket.reopened' });
  if (types.length) return types;
  const change =
    after.queueId !== before.queueId
      ? 'queue'
      : after.status !== before.status
        ? 'status'
        : after.userId !== before.userId
          ? 'user'
          : 'bot';
  return [{ type: 'ticket.updated', change }];
};

const ticketData =
  (ticketId: number, extra: Record<string, unknown>) =>
  (loaded: Loaded): Record<string, unknown> | null => {
    const ticket = loaded.tickets.get(ticketId);
    return ticket ? { ticket, ...extra } : null;
  };

const messageData =
  (ticketId: number, messageId: number, extra: Record<string, unknown>) =>
  (loaded: Loaded): Record<string, unknown> | null => {
    const ticket = loaded.tickets.get(ticketId);
    const message = loaded.messages.get(messageId);
    return ticket && message ? { message, ticket, ...extra } : null;
  };

const fromDomainEvent = (event: DomainEvent, needs: Needs): Pending[] => {
  const need = (ticketId: number, messageId?: number) => {
    needs.tickets.add(ticketId);
    if (messageId !== undefined) needs.messages.add(messageId);
  };
  switch (event.type) {
    case 'ticket.changed':
      need(event.ticketId);
      return ticketChangeTypes(event).map(({ type, change }) => ({
        companyId: event.companyId,
        type,
        orderKey: `ticket:${event.ticketId}`,
        data: ticketData(event.ticketId, {
          previous: snapshotOf(event.before),
          byUserId: event.byUserId,
          ...(change ? { change } : {}),
        }),
      }));
    case 'ticket.updated':
      if (event.detail !== 'tags' && event.detail !== 'details') return [];
      need(event.ticketId);
      return [
        {
          companyId: event.companyId,
          type: 'ticket.updated',
          orderKey: `ticket:${event.ticketId}`,
          data: ticketData(event.ticketId, {
            previous: null,
            byUserId: null,
            change: event.detail,
          }),
        },
      ];
    case 'message.created':
      need(event.ticketId, event.messageId);
      return [
        {
          companyId: event.companyId,
          type: 'message.created',
          orderKey: `ticket:${event.ticketId}`,
          data: messageData(event.ticketId, event.messageId, { author: event.author }),
        },
      ];
    case 'message.updated': {
      const type =
        event.reason === 'ack' || event.reason === 'sent'
          ? 'message.status_changed'
          : event.reason === 'failed'
            ? 'message.failed'
            : null;
      if (!type) return [];
      need(event.ticketId, event.messageId);
      return [
        {
          companyId: event.companyId,
          type,
          orderKey: `ticket:${event.ticketId}`,
          data: messageData(event.ticketId, event.messageId, {}),
        },
      ];
    }
    case 'ticket.sla':
      if (event.state !== 'breached') return [];
      need(event.ticketId);
      return [
        {
          companyId: event.companyId,
          type: 'sla.breached',
          orderKey: `ticket:${event.ticketId}`,
          data: ticketData(event.ticketId, {
            sla: {
              kind: event.kind,
              dueAt: event.dueAt,
              queueId: event.queueId,
              userId: event.userId,
            },
          }),
        },
      ];
    case 'ticket.rated':
      need(event.ticketId);
      return [
        {
          companyId: event.companyId,
          type: 'rating.received',
          orderKey: `ticket:${event.ticketId}`,
          data: ticketData(event.ticketId, {
            rating: { rate: event.rate, userId: event.userId, createdAt: new Date().toISOString() },
          }),
        },
      ];
    case 'contact.changed':
      needs.contacts.add(event.contactId);
      return [
        {
          companyId: event.companyId,
          type: event.created ? 'contact.created' : 'contact.updated',
          orderKey: `contact:${event.contactId}`,
          data: (loaded) => {
            const contact = loaded.contacts.get(event.contactId);
            return contact ? { contact } : null;
          },
        },
      ];
    case 'connection.status':
      needs.connections.add(event.whatsappId);
      return [
        {
          companyId: event.companyId,
          type: 'connection.status_changed',
          orderKey: `connection:${event.whatsappId}`,
          data: (loaded) => {
            const connection = loaded.connections.get(event.whatsappId);
            // The status the event tells of (the row may have moved on within the transaction).
            return connection
              ? {
                  connection: { ...connection, status: event.after },
                  previousStatus: event.before,
                  cause: event.cause,
                  detail: event.detail,
                }
              : null;
          },
        },
      ];
    case 'campaign.status': {
      const type =
        event.after === 'EM_ANDAMENTO'
          ? 'campaign.started'
          : event.after === 'FINALIZADA'
            ? 'campaign.finished'
            : null;
      if (!type) return [];
      needs.campaigns.add(event.campaignId);
      return [
        {
          companyId: event.companyId,
          type,
          orderKey: `campaign:${event.campaignId}`,
          data: (loaded) => {
            const campaign = loaded.campaigns.get(event.campaignId);
            return campaign ? { campaign: { ...campaign, status: event.after } } : null;
          },
        },
      ];
    }
    default:
      return [];
  }
};

const byId = <R extends { id: number }>(rows: R[]) =>
  new Map<number, Record<string, unknown>>(rows.map((row) => [row.id, row]));

const iso = (value: Date | null) => value?.toISOString() ?? null;

const loadContacts = async (tx: Db, ids: number[]) =>
  ids.length
    ? byId(
        (await tx.select().from(contacts).where(inArray(contacts.id, ids))).map((row) => ({
          id: row.id,
          name: row.name,
          number: row.number,
          email: row.email,
          isGroup: row.isGroup,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
        })),
      )
    : new Map();

const loadConnections = async (tx: Db, ids: number[]) =>
  ids.length
    ? byId(
        await tx
          .select({
            id: whatsapps.id,
            name: whatsapps.name,
            provider: whatsapps.provider,
            status: whatsapps.status,
            number: whatsapps.number,
          })
          .from(whatsapps)
          .where(inArray(whatsapps.id, ids)),
      )
    : new Map();

const loadCampaigns = async (tx: Db, ids: number[]) =>
  ids.length
    ? byId(
        (await tx.select().from(campaigns).where(inArray(campaigns.id, ids))).map((row) => ({
          id: row.id,
          name: row.name,
          status: row.status,
          whatsappId: row.whatsappId,
          scheduledAt: iso(row.scheduledAt),
          completedAt: iso(row.completedAt),
        })),
      )
    : new Map();

// --- Storing the deliveries ---

const loadTickets = async (tx: Db, ids: number[]) => {
  if (!ids.length) return new Map<number, TicketPayload>();
  const [rows, tagRows] = [
    await tx.select().from(tickets).where(inArray(tickets.id, ids)),
    await tx
      .select({ ticketId: ticketTags.ticketId, id: tags.id, name: tags.name })
      .from(ticketTags)
      .innerJoin(tags, eq(tags.id, ticketTags.tagId))
      .where(inArray(ticketTags.ticketId, ids))
      .orderBy(asc(tags.name)),
  ];
  return new Map(
    rows.map((row) => [
      row.id,
      ticketPayload(
        row,
        tagRows.filter((tag) => tag.ticketId === row.id).map(({ id, name }) => ({ id, name })),
      ),
    ]),
  );
};

const WAKE = webhookDeliveryQueue.name;

// A company's endpoints that are on (prepared: every inbound message's transaction asks).
const endpointsOf = preparedPer((db) =>
  db
    .select({
      id: webhookEndpoints.id,
      companyId: webhookEndpoints.companyId,
      events: webhookEndpoints.events,
    })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.companyId, sql.placeholder('companyId')),
        eq(webhookEndpoints.enabled, true),
      ),
    )
    .prepare('webhook_endpoints_on'),
);

export const createWebhookRecorders = (deps: Deps) => {
  const toMessage = messagePayload(deps);

  // Stores a delivery per endpoint of the company that hears the event's type, and its job (keyed by
  // endpoint and what the event is about, so one ticket's deliveries reach an endpoint in order).
  const store = async (tx: Db, pending: Pending[], needs: Needs) => {
    if (!pending.length) return undefined;
    const types = new Set(pending.map((item) => item.type));
    const endpoints = (
      await Promise.all(
        [...new Set(pending.map((item) => item.companyId))].map((companyId) =>
          endpointsOf(tx).execute({ companyId }),
        ),
      )
    )
      .flat()
      .filter((endpoint) => endpoint.events.some((type) => types.has(type as WebhookEventType)));
    if (!endpoints.length) return undefined;
    const messageRows = needs.messages.size
      ? await tx
          .select()
          .from(messages)
          .where(inArray(messages.id, [...needs.messages]))
      : [];
    const loaded: Loaded = {
      tickets: await loadTickets(tx, [...needs.tickets]),
      messages: new Map(messageRows.map((row) => [row.id, toMessage(row)])),
      contacts: await loadContacts(tx, [...needs.contacts]),
      connections: await loadConnections(tx, [...needs.connections]),
      campaigns: await loadCampaigns(tx, [...needs.campaigns]),
    };
    const timestamp = new Date().toISOString();
    const rows = pending.flatMap((item) => {
      const listeners = endpoints.filter(
        (endpoint) => endpoint.companyId === item.companyId && endpoint.events.includes(item.type),
      );
      const data = listeners.length ? item.data(loaded) : null;
      if (!data) return [];
      return listeners.map((endpoint) => ({
        companyId: item.companyId,
        endpointId: endpoint.id,
        messageId: `msg_${randomUUID().replaceAll('-', '')}`,
        eventType: item.type,
        orderKey: item.orderKey,
        payload: { type: item.type, timestamp, companyId: item.companyId, data },
      }));
    });
    if (!rows.length) return undefined;
    const stored = await tx.insert(webhookDeliveries).values(rows).returning({
      id: webhookDeliveries.id,
      companyId: webhookDeliveries.companyId,
      endpointId: webhookDeliveries.endpointId,
      orderKey: webhookDeliveries.orderKey,
    });
    await enqueueJobs(
      tx,
      webhookDeliveryQueue,
      stored
        .sort((a, b) => a.id - b.id)
        .map((delivery) => ({
          payload: { deliveryId: delivery.id },
          key: `${delivery.endpointId}:${delivery.orderKey}`,
          ref: `webhook-delivery:${delivery.id}`,
          companyId: delivery.companyId,
        })),
    );
    return WAKE;
  };

  // A recorder of all a transaction's events of a type (events.recordAll).
  const recorder = async <T extends DomainEvent>(tx: Db, events: T[]) => {
    const needs: Needs = {
      tickets: new Set(),
      messages: new Set(),
      contacts: new Set(),
      connections: new Set(),
      campaigns: new Set(),
    };
    return store(
      tx,
      events.flatMap((event) => fromDomainEvent(event, needs)),
      needs,
    );
  };
  return { recorder };
};
