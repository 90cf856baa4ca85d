import { act } from '@testing-library/react';
import type {
  AppMessageEvent,
  ChatMessageView,
  ContactView,
  ReplyWindow,
  TicketEvent,
  TicketView,
} from '@atendi/shared';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { jsonResponse } from '../../test/fixtures';

// Local times relative to today: lists show HH:mm for today, and the page's clock decides which day that is.
export const dayAt = (daysAgo: number, hours: number, minutes = 0) => {
  const date = new Date();
  date.setDate(date.getDate() - daysAgo);
  date.setHours(hours, minutes, 0, 0);
  return date.toISOString();
};
export const todayAt = (hours: number, minutes = 0) => dayAt(0, hours, minutes);

export const makeContact = (overrides: Partial<ContactView> = {}): ContactView => ({
  id: 1,
  name: 'María López',
  number: '5215512345678',
  email: '',
  profilePicUrl: '',
  urlPicture: '',
  isGroup: false,
  whatsappId: 1,
  createdAt: '2025-03-01T10:00:00',
  updatedAt: '2025-03-01T10:00:00',
  ...overrides,
});

export const makeTicket = (overrides: Partial<TicketView> = {}): TicketView => {
  const id = overrides.id ?? 1;
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    status: 'open',
    queueId: 1,
    queue: { id: 1, name: 'Ventas', color: '#2e7d32' },
    userId: 1,
    user: { id: 1, name: 'Ana Admin' },
    contactId: id,
    contact: makeContact({ id }),
    whatsappId: 1,
    whatsapp: { id: 1, name: 'Línea principal', status: 'CONNECTED' },
    isGroup: false,
    chatbot: false,
    lastMessage: 'Hola, ¿tienen envíos?',
    lastContactMessage: 'Hola, ¿tienen envíos?',
    unreadMessages: 0,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    tags: [],
    slaDueAt: null,
    slaKind: null,
    version: 0,
    createdAt: todayAt(8),
    updatedAt: todayAt(9, 5),
    ...overrides,
  };
};

export const makeMessage = (overrides: Partial<ChatMessageView> = {}): ChatMessageView => ({
  id: 1,
  ticketId: 1,
  contactId: 1,
  body: 'Hola',
  fromMe: false,
  read: true,
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
  createdAt: todayAt(9),
  updatedAt: todayAt(9),
  error: null,
  reactions: [],
  ...overrides,
});

export const listOf = (tickets: TicketView[], hasMore = false) =>
  jsonResponse(200, { tickets, count: tickets.length, hasMore });

// replyWindow: a Cloud API ticket's 24-hour window; null on other connections.
export const messagesOf = (
  ticket: TicketView,
  messages: ChatMessageView[],
  hasMore = false,
  replyWindow: ReplyWindow | null = null,
) => jsonResponse(200, { messages, ticket, count: messages.length, hasMore, replyWindow });

// Delivers a server event inside act, which also runs TanStack Query's batched notifications (a
// microtask in tests, see test/setup.ts) so that the screen shows the result.
const receive = async (event: string, payload: unknown) => {
  const socket = getSocket() as unknown as FakeSocket;
  await act(async () => {
    socket.receive(event, payload);
  });
};

export const receiveTicket = (event: TicketEvent, companyId = 1) =>
  receive(`company-${companyId}-ticket`, event);

export const receiveAppMessage = (
  message: ChatMessageView,
  ticket: TicketView,
  action: AppMessageEvent['action'] = 'create',
  companyId = 1,
) =>
  receive(`company-${companyId}-appMessage`, {
    action,
    message,
    ticket,
    contact: ticket.contact,
  });

export const bodyOf = (init: RequestInit) =>
  JSON.parse(String(init.body)) as Record<string, unknown>;
