import type { TicketDetail } from '@atendi/shared';
import type {
  DomainEvent,
  MessageAuthor,
  MessageChange,
  TicketSnapshot,
} from '../../../events/domain-events';
import type { messages, tickets } from '../../../db/schema';

type TicketRow = typeof tickets.$inferSelect;

// The domain events of tickets and their messages (events/domain-events.ts), built from rows.

export const snapshotOf = (
  ticket: Pick<TicketRow, 'status' | 'userId' | 'queueId' | 'whatsappId'> &
    Partial<Pick<TicketRow, 'promptId' | 'integrationId' | 'useIntegration' | 'chatbot'>>,
): TicketSnapshot => ({
  status: ticket.status,
  userId: ticket.userId,
  queueId: ticket.queueId,
  whatsappId: ticket.whatsappId,
  promptId: ticket.promptId ?? null,
  integrationId: ticket.useIntegration ? (ticket.integrationId ?? null) : null,
  chatbot: ticket.chatbot ?? false,
});

// A ticket created (before null) or changed, by a person or (null) by the platform.
export const ticketChanged = (
  before: TicketRow | null,
  after: TicketRow,
  byUserId: number | null,
  byMessageId?: number,
  routed = false,
): DomainEvent => ({
  type: 'ticket.changed',
  companyId: after.companyId,
  ticketId: after.id,
  byUserId,
  ...(byMessageId === undefined ? {} : { byMessageId }),
  ...(routed && after.userId !== null ? { routedTo: after.userId } : {}),
  before: before ? snapshotOf(before) : null,
  after: snapshotOf(after),
});

// Something a ticket's view shows changed, not its lifecycle.
export const ticketUpdated = (
  ticket: Pick<TicketRow, 'id' | 'companyId'>,
  detail: TicketDetail,
): DomainEvent => ({
  type: 'ticket.updated',
  companyId: ticket.companyId,
  ticketId: ticket.id,
  detail,
});

type MessageRef = Pick<typeof messages.$inferSelect, 'id' | 'companyId' | 'ticketId'>;

// A message stored; `byUserId` names the agent when the author is one; `ticket`, the message's ticket
// as the storing transaction holds it locked, when the caller has it; `awaitsBot`, shown once the queue
// bot took its turn on it (message.routed).
export const messageCreated = (
  message: MessageRef & Pick<typeof messages.$inferSelect, 'fromMe' | 'mediaType' | 'mediaUrl'>,
  author: MessageAuthor,
  byUserId: number | null = null,
  ticket?: TicketRow,
  awaitsBot = false,
): DomainEvent => ({
  type: 'message.created',
  companyId: message.companyId,
  ticketId: message.ticketId,
  messageId: message.id,
  fromMe: message.fromMe,
  author,
  byUserId: author === 'agent' ? byUserId : null,
  ...(ticket ? { ticket: snapshotOf(ticket) } : {}),
  ...(awaitsBot ? { awaitsBot: true as const } : {}),
  ...(message.mediaType === 'audio' && message.mediaUrl ? { audio: true as const } : {}),
});

export const messageUpdated = (message: MessageRef, reason: MessageChange): DomainEvent => ({
  type: 'message.updated',
  companyId: message.companyId,
  ticketId: message.ticketId,
  messageId: message.id,
  reason,
});

// The queue bot's turn on a message that awaited it is over.
export const messageRouted = (message: MessageRef, ticketCreated: boolean): DomainEvent => ({
  type: 'message.routed',
  companyId: message.companyId,
  ticketId: message.ticketId,
  messageId: message.id,
  ticketCreated,
});
