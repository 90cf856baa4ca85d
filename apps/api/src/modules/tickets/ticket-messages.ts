import type { Db } from '../../db/client';
import type { messages, tickets } from '../../db/schema';
import type { TicketView } from './ticket-views';

export type MessageRow = typeof messages.$inferSelect;
export type OutgoingTicket = Pick<
  typeof tickets.$inferSelect,
  'id' | 'companyId' | 'whatsappId' | 'contactId'
>;

// What tickets needs of the messages module (the port): messages implements it
// (messages.service.ts createTicketMessages) and app.ts hands it over as deps.ticketMessages, so
// messages depends on tickets and tickets never on messages (eslint keeps it so).
export type TicketMessages = {
  // Writes an outgoing text on the ticket and queues its send in the caller's transaction: an
  // automatic message is stored with the ticket change that causes it, or not at all.
  // `promptId` marks an AI agent's answer.
  queueText: (
    tx: Db,
    ticket: OutgoingTicket,
    body: string,
    options?: { promptId?: number },
  ) => Promise<MessageRow[]>;
  // After commit: company-{id}-appMessage to every screen that shows the messages' tickets (the
  // tickets as just loaded, when the caller has them).
  emit: (
    companyId: number,
    action: 'create' | 'update',
    rows: MessageRow[],
    loaded?: TicketView[],
  ) => Promise<void>;
};
