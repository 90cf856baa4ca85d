import { eq, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client';
import { preparedPer } from '../../../db/prepared';
import { contacts, queues, tags, ticketTags, tickets, users, whatsapps } from '../../../db/schema';
import type { ContactView, SlaKind, TicketView } from '@atendi/shared';

export type { TicketView };

// What the API answers and emits for tickets and their contacts (SPEC §3 Ticket, Contact); messages
// are serialised by the messages module (message-views.ts).

type ContactRow = typeof contacts.$inferSelect;

export const serializeContact = (row: ContactRow): ContactView => ({
  id: row.id,
  name: row.name,
  number: row.number,
  email: row.email,
  profilePicUrl: row.profilePicUrl,
  urlPicture: row.urlPicture,
  isGroup: row.isGroup,
  whatsappId: row.whatsappId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

// What a list row shows, in one statement: the ticket, its contact, queue, user, connection and tags.
const viewColumns = {
  ticket: tickets,
  contact: contacts,
  queue: { id: queues.id, name: queues.name, color: queues.color },
  user: { id: users.id, name: users.name },
  whatsapp: { id: whatsapps.id, name: whatsapps.name, status: whatsapps.status },
  // The ticket's tags by name, in the same round trip.
  tags: sql<TicketView['tags']>`coalesce((
    select json_agg(json_build_object('id', ${tags.id}, 'name', ${tags.name}, 'color', ${tags.color}) order by ${tags.name})
    from ${ticketTags} join ${tags} on ${tags.id} = ${ticketTags.tagId}
    where ${ticketTags.ticketId} = ${tickets.id}), '[]'::json)`,
};

// Tickets as a list row shows them (and any extra columns a caller needs in the same round trip);
// the caller adds which (where) and in what order.
export const selectTicketViews = <Extra extends SelectedFields = Record<never, never>>(
  db: Db,
  extra?: Extra,
) =>
  db
    .select({ ...viewColumns, ...(extra as Extra) })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .innerJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(users, eq(users.id, tickets.userId));

// Which promise the nearest SLA deadline is.
const slaKindOf = (ticket: typeof tickets.$inferSelect): SlaKind | null => {
  const due = ticket.slaDueAt?.getTime();
  if (due === undefined) return null;
  if (ticket.slaFirstDueAt?.getTime() === due) return 'firstResponse';
  if (ticket.slaNextDueAt?.getTime() === due) return 'nextResponse';
  return 'resolution';
};

type ViewRow = Awaited<ReturnType<typeof selectTicketViews<Record<never, never>>>>[number];

export const toTicketView = ({
  ticket,
  contact,
  queue,
  user,
  whatsapp,
  tags: tagList,
}: ViewRow): TicketView => ({
  id: ticket.id,
  uuid: ticket.uuid,
  status: ticket.status,
  queueId: ticket.queueId,
  queue: queue?.id ? queue : null,
  userId: ticket.userId,
  user: user?.id ? user : null,
  contactId: ticket.contactId,
  contact: serializeContact(contact),
  whatsappId: ticket.whatsappId,
  whatsapp,
  isGroup: ticket.isGroup,
  chatbot: ticket.chatbot,
  lastMessage: ticket.lastMessage,
  lastContactMessage: ticket.lastContactMessage,
  unreadMessages: ticket.unreadMessages,
  useIntegration: ticket.useIntegration,
  promptId: ticket.promptId,
  integrationId: ticket.integrationId,
  tags: tagList,
  slaDueAt: ticket.slaDueAt?.toISOString() ?? null,
  slaKind: slaKindOf(ticket),
  version: ticket.version,
  createdAt: ticket.createdAt.toISOString(),
  updatedAt: ticket.updatedAt.toISOString(),
});

// Every list, message page and live event loads views.
const viewsQuery = preparedPer((db) =>
  selectTicketViews(db)
    .where(sql`${tickets.id} = any(${sql.placeholder('ids')}::integer[])`)
    .prepare('ticket_views'),
);

// Loads tickets with what a list row shows, in the order of the ids given.
export const loadTicketViews = async (db: Db, ids: number[]): Promise<TicketView[]> => {
  if (!ids.length) return [];
  const rows = await viewsQuery(db).execute({ ids });
  const byId = new Map(rows.map((row): [number, TicketView] => [row.ticket.id, toTicketView(row)]));
  return ids.map((id) => byId.get(id)).filter((v): v is TicketView => Boolean(v));
};
