import type { MediaType, TicketStatus } from './constants';

// What the API answers and emits for tickets, contacts and messages (SPEC §3).

export type ContactView = {
  id: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  urlPicture: string;
  isGroup: boolean;
  whatsappId: number | null;
  createdAt: string;
  updatedAt: string;
};

export type TicketView = {
  id: number;
  uuid: string;
  status: TicketStatus;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  userId: number | null;
  user: { id: number; name: string } | null;
  contactId: number;
  contact: ContactView;
  whatsappId: number;
  whatsapp: { id: number; name: string; status: string };
  isGroup: boolean;
  chatbot: boolean;
  lastMessage: string;
  unreadMessages: number;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  tags: { id: number; name: string; color: string }[];
  createdAt: string;
  updatedAt: string;
};

export type MessageView = {
  id: number;
  ticketId: number;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  mediaType: MediaType;
  mediaUrl: string | null;
  mediaName: string | null;
  quotedMsgId: number | null;
  quotedMsg: MessageView | null;
  isDeleted: boolean;
  isEdited: boolean;
  // SPEC §4 Message ack: 0 not sent yet, 1-5 sent, delivered, read (4 and 5 read).
  ack: number;
  remoteJid: string | null;
  scheduled: boolean;
  createdAt: string;
  updatedAt: string;
};

// In a chat (GET /messages/{ticketId} and live updates): a sent message whose every attempt failed.
export type ChatMessageView = MessageView & { error: 'ERR_SENDING_WAPP_MSG' | null };

// GET /tickets
export type TicketListPage = { tickets: TicketView[]; count: number; hasMore: boolean };

// company-{id}-ticket and company-{id}-appMessage payloads (SPEC §7 Real-time).
export type TicketEvent =
  | { action: 'update'; ticket: TicketView }
  | { action: 'delete'; ticketId: number }
  | { action: 'updateUnread'; ticketId: number };
export type AppMessageEvent = {
  action: 'create' | 'update';
  message: MessageView;
  ticket: TicketView;
  contact: ContactView;
};
