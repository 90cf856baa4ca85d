import { z } from 'zod';
import { mediaErrors, mediaTypes, slaKinds, ticketStatuses } from './constants';
import { dateTime } from './responses';
import { replyWindowSchema } from './templates';

// What the API answers and emits for tickets, contacts and messages (SPEC §3).

export const contactViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  urlPicture: z.string(),
  isGroup: z.boolean(),
  whatsappId: z.number().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type ContactView = z.input<typeof contactViewSchema>;

// The { id, name, color } of a queue or tag that a ticket, user or connection carries.
export const colouredRefSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });

export const ticketViewSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  status: z.enum(ticketStatuses),
  queueId: z.number().nullable(),
  queue: colouredRefSchema.nullable(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  contactId: z.number(),
  contact: contactViewSchema,
  whatsappId: z.number(),
  whatsapp: z.object({ id: z.number(), name: z.string(), status: z.string() }),
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  lastMessage: z.string(),
  // The contact's own newest message: what the notifications preview (the bot's menu may be newer).
  lastContactMessage: z.string(),
  unreadMessages: z.number(),
  useIntegration: z.boolean(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  tags: z.array(colouredRefSchema),
  // The nearest deadline of its queue's SLA policy still open (past: breached), and which promise it
  // is; null when no SLA clock runs.
  slaDueAt: dateTime.nullable(),
  slaKind: z.enum(slaKinds).nullable(),
  // Grows with every change of the ticket: of two views, the higher version is the newer state.
  version: z.number(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type TicketView = z.input<typeof ticketViewSchema>;

const messageFields = {
  id: z.number(),
  ticketId: z.number(),
  contactId: z.number().nullable(),
  body: z.string(),
  fromMe: z.boolean(),
  read: z.boolean(),
  mediaType: z.enum(mediaTypes),
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  // Why a received file is not there: WhatsApp did not hand it over, or the company's storage was full.
  mediaError: z.enum(mediaErrors).nullable(),
  // What a voice note says, written by the company's AI provider (issue 40; null: not transcribed).
  // The body stays the caption its sender wrote.
  transcript: z.string().nullable(),
  quotedMsgId: z.number().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  // Forwarded from another chat (issue 39).
  isForwarded: z.boolean(),
  // SPEC §4 Message ack: 0 not sent yet, 1-5 sent, delivered, read (4 and 5 read).
  ack: z.number(),
  remoteJid: z.string().nullable(),
  scheduled: z.boolean(),
  // Written by this AI agent (null: by a person, the contact or another bot).
  promptId: z.number().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
};
const messageBaseSchema = z.object(messageFields);
// A message quotes another, shown one level deep: the quoted message's own quotedMsg is null. The
// type stays recursive, as the API builds both with one function.
export type MessageView = z.input<typeof messageBaseSchema> & { quotedMsg: MessageView | null };
type MessageOutput = z.output<typeof messageBaseSchema> & { quotedMsg: MessageOutput | null };
const quotedMsgSchema = messageBaseSchema.extend({ quotedMsg: z.null() }).nullable();
export const messageViewSchema: z.ZodType<MessageOutput, MessageView> = messageBaseSchema.extend({
  quotedMsg: quotedMsgSchema,
});

// In a chat (GET /messages/{ticketId} and live updates): a sent message whose every attempt failed,
// and the reactions on it (issue 39): one per WhatsApp account, as WhatsApp keeps them (the contact's,
// in groups each member's, and the company's number's, whoever of its people chose it).
const sendError = z.literal('ERR_SENDING_WAPP_MSG').nullable();
export const messageReactionViewSchema = z.object({
  emoji: z.string(),
  fromMe: z.boolean(),
  // Who reacted: the member's or contact's name (their number when unknown), or the person of the
  // company who chose the company's reaction (null when it came from the phone itself).
  name: z.string().nullable(),
  at: dateTime,
});
export type MessageReactionView = z.input<typeof messageReactionViewSchema>;
const chatFields = {
  quotedMsg: quotedMsgSchema,
  error: sendError,
  reactions: z.array(messageReactionViewSchema),
};
export type ChatMessageView = MessageView & {
  error: z.input<typeof sendError>;
  reactions: MessageReactionView[];
};
export const chatMessageViewSchema: z.ZodType<
  MessageOutput & {
    error: z.output<typeof sendError>;
    reactions: z.output<typeof messageReactionViewSchema>[];
  },
  ChatMessageView
> = messageBaseSchema.extend(chatFields);

// GET /messages/{ticketId}: one page of the chat (oldest first) and the ticket as it is now.
export const messagesPageSchema = z.object({
  messages: z.array(chatMessageViewSchema),
  ticket: ticketViewSchema,
  // Every message of the ticket, not only this page's.
  count: z.number(),
  hasMore: z.boolean(),
  // Cloud API tickets: whether the contact's 24-hour window is open (templates.ts); null elsewhere.
  replyWindow: replyWindowSchema.nullable(),
});
export type MessagesPage = z.input<typeof messagesPageSchema>;

// GET /tickets. count is the number of tickets on this page (SPEC names only tickets and hasMore).
export const ticketListPageSchema = z.object({
  tickets: z.array(ticketViewSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type TicketListPage = z.input<typeof ticketListPageSchema>;

// GET /ticket-notes/list and POST /ticket-notes (SPEC §3 Ticket note).
export const ticketNoteViewSchema = z.object({
  id: z.number(),
  note: z.string(),
  ticketId: z.number(),
  contactId: z.number(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  // Written by the platform: the AI agent or integration that wrote it (user is then null).
  botName: z.string().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type TicketNoteView = z.input<typeof ticketNoteViewSchema>;

// POST /tickets/bulk: what happened to each ticket, in the order tried.
export const ticketBulkResultSchema = z.object({
  total: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  results: z.array(
    z.object({
      id: z.number(),
      ok: z.boolean(),
      error: z.string().optional(),
      message: z.string().optional(),
    }),
  ),
});
export type TicketBulkResult = z.input<typeof ticketBulkResultSchema>;

// company-{id}-ticket and company-{id}-appMessage payloads (SPEC §7 Real-time).
// What changed on a ticket besides its lifecycle: someone read the conversation, its tags changed,
// the queue bot moved it through its menus, live insight stored a new analysis, a note was written
// in the background (a bot's, the co-pilot's summary), or another detail its view shows.
export type TicketDetail = 'read' | 'tags' | 'bot' | 'insight' | 'notes' | 'details';

export type TicketEvent =
  // routedTo: automatic assignment (a queue's routing) just gave the conversation to this user.
  // changed: what else changed on it (a screen showing its notes or insight reads them again).
  | { action: 'update'; ticket: TicketView; routedTo?: number; changed?: TicketDetail[] }
  // version: the ticket's state that took it off these lists (absent: the ticket itself is gone).
  | { action: 'delete'; ticketId: number; version?: number }
  | { action: 'updateUnread'; ticketId: number };
export type AppMessageEvent = {
  action: 'create' | 'update';
  message: MessageView;
  ticket: TicketView;
  contact: ContactView;
};
