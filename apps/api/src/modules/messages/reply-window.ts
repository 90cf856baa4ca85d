import { sql, type SQLWrapper } from 'drizzle-orm';
import { replyWindowAt, type ReplyWindow } from '@atendi/shared';
import { queryRows, type Db } from '../../db/client';
import { AppError } from '../../platform/errors';

// Meta's 24-hour rule (shared/templates.ts): on a Cloud API connection, a free-form message reaches a
// contact only within 24 hours of the contact's last message on that number. Other providers have no
// such rule (null). One round trip; the contact's messages are looked at only on Cloud API tickets.
const replyWindowOf = async (
  db: Db,
  ticket: { whatsappId: number; contactId: number },
  now = new Date(),
): Promise<ReplyWindow | null> => {
  const [row] = await queryRows<{ provider: string; last: Date | string | null }>(
    db,
    sql`select w.provider, ${lastInboundSql(sql`w.provider`, ticket.contactId, ticket.whatsappId)} as last
        from whatsapps w where w.id = ${ticket.whatsappId}`,
  );
  if (row?.provider !== 'cloud') return null;
  return replyWindowAt(row.last, now);
};

// When the contact last wrote on this number, on Cloud API connections only (null elsewhere, without
// looking): a column of a statement that has the connection's provider at hand.
export const lastInboundSql = (
  provider: SQLWrapper,
  contactId: SQLWrapper | number,
  whatsappId: SQLWrapper | number,
) =>
  sql<Date | string | null>`case when ${provider} = 'cloud' then (
    select max(m.created_at) from messages m join tickets t on t.id = m.ticket_id
    where t.contact_id = ${contactId} and t.whatsapp_id = ${whatsappId} and not m.from_me) end`;

// A free-form send to a contact whose window is closed would only fail at Meta: refuse it up front.
export const assertReplyWindow = async (
  db: Db,
  ticket: { whatsappId: number; contactId: number },
) => {
  const window = await replyWindowOf(db, ticket);
  if (window && !window.open)
    throw new AppError(
      'ERR_WAPP_WINDOW_CLOSED',
      window.closesAt
        ? 'The contact has not written in the last 24 hours: WhatsApp only accepts an approved template'
        : 'The contact has never written to this number: WhatsApp only accepts an approved template',
      { details: { closesAt: window.closesAt } },
    );
};
