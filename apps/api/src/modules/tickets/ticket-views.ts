import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contacts, queues, tags, ticketTags, tickets, users, whatsapps } from '../../db/schema';
import type { ContactView, TicketView } from '@atendi/shared';

export type { ContactView, TicketView };

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

// What a list row shows, for the tickets whose ids are the `ids` placeholder. Every list, message
// page and live event loads views, so the statement is built once per database handle and prepared
// (named): no request pays for building its SQL, and the server plans it once per connection. A
// transaction gets its own (a statement prepared on the pool would run outside it).
const buildViewsQuery = (db: Db) =>
  db
    .select({
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
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .innerJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .where(sql`${tickets.id} = any(${sql.placeholder('ids')}::integer[])`)
    .prepare('ticket_views');
const viewsQueries = new WeakMap<Db, ReturnType<typeof buildViewsQuery>>();
const viewsQuery = (db: Db) => {
  let query = viewsQueries.get(db);
  if (!query) {
    query = buildViewsQuery(db);
    viewsQueries.set(db, query);
  }
  return query;
};

// Loads tickets with what a list row shows, in the order of the ids given.
export const loadTicketViews = async (db: Db, ids: number[]): Promise<TicketView[]> => {
  if (!ids.length) return [];
  const rows = await viewsQuery(db).execute({ ids });
  const byId = new Map(
    rows.map(({ ticket, contact, queue, user, whatsapp, tags: tagList }): [number, TicketView] => [
      ticket.id,
      {
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
        unreadMessages: ticket.unreadMessages,
        useIntegration: ticket.useIntegration,
        promptId: ticket.promptId,
        integrationId: ticket.integrationId,
        tags: tagList,
        version: ticket.version,
        createdAt: ticket.createdAt.toISOString(),
        updatedAt: ticket.updatedAt.toISOString(),
      },
    ]),
  );
  return ids.map((id) => byId.get(id)).filter((v): v is TicketView => Boolean(v));
};
