import type { FastifyBaseLogger } from 'fastify';
import type { ConnectionCause, ConnectionStatus, MediaType, Provider } from '@atendi/shared';
import type { Db } from '../db/client';
import { AppError } from '../platform/errors';
import type { whatsapps } from '../db/schema';

// The channel layer (DESIGN.md "Channels"): one driver per provider, one session per connection.
// Everything above this file (tickets, bots, campaigns) talks to sessions through the manager and
// never learns which driver carries a connection.

export type ConnectionRow = typeof whatsapps.$inferSelect;

// A message as every driver reports it.
export type InboundMessage = {
  // The provider's message id; a redelivery carries the same id.
  providerId: string;
  // The chat: the contact's normalised phone number (digits only, country code first), the group id
  // ('…@g.us'), or, when WhatsApp hid the number, the '…@lid' id (lid is then set too).
  from: string;
  // In groups, the member who wrote (normalised number); otherwise undefined.
  participant?: string;
  // The sender's WhatsApp privacy id (LID) when the provider revealed it next to the phone number.
  lid?: string;
  // The name the contact set on WhatsApp (push name), when known.
  contactName?: string;
  body: string;
  mediaType: MediaType;
  // Present when the message carries a file; the manager downloads it before handing the message on.
  media?: { fileName?: string; mimetype?: string };
  // Provider id of the quoted message.
  quotedId?: string;
  isGroup: boolean;
  // Sent from the phone itself (or another linked device).
  fromMe: boolean;
  timestamp: Date;
  // The raw provider payload, kept for quoting, media refetch and edits.
  raw?: Record<string, unknown>;
};

// Where a message's file ended up after the manager stored it (platform/uploads.ts).
export type StoredMedia = { storedName: string; fileName: string; mimetype: string; size: number };

// SPEC §4 Message ack: 0 not yet sent (or failed), 1 pending, 2 sent to the server, 3 delivered,
// 4 read, 5 played.
export type Ack = 0 | 1 | 2 | 3 | 4 | 5;

export type ChannelEvent =
  // An empty qr clears the code (connected, or gave up waiting).
  | { type: 'qr'; qr: string }
  | { type: 'pairingCode'; code: string }
  | {
      type: 'status';
      status: ConnectionStatus;
      number?: string;
      retries?: number;
      reason?: string;
      // Why, when WhatsApp or the provider decided it (the connection's history keeps it).
      cause?: ConnectionCause;
    }
  // Meta's view of a Cloud API number: its quality rating and messaging limit tier, when known.
  | { type: 'health'; quality?: string; messagingLimit?: string }
  | { type: 'message'; message: InboundMessage }
  | { type: 'ack'; providerId: string; ack: Ack; error?: string }
  | { type: 'typing'; from: string; typing: boolean }
  | { type: 'edit'; providerId: string; body: string }
  | { type: 'revoke'; providerId: string }
  // Someone reacted to a message (providerId: the message reacted to) in a chat (from, as in
  // InboundMessage); '' takes the reaction back. fromMe: the company's own number (the phone, or this
  // platform's send coming back). In groups, participant is the member who reacted.
  | {
      type: 'reaction';
      providerId: string;
      from: string;
      participant?: string;
      fromMe: boolean;
      emoji: string;
      timestamp: Date;
    };

export type OutgoingMedia = {
  // The file's stored name in the connection's company (platform/uploads.ts). A send may travel to
  // another node as JSON, so it names the file; the session reads it with readMedia.
  storedName: string;
  fileName: string;
  mimetype: string;
  mediaType: MediaType;
};

// An approved Cloud API template (shared/templates.ts), with the values of its parameters in order.
export type TemplateSend = {
  name: string;
  language: string;
  // Named parameters (Meta's NAMED format) carry their names; positional ones are sent in order.
  header: { name: string; value: string }[];
  body: { name: string; value: string }[];
  // The file of an IMAGE, VIDEO or DOCUMENT header.
  headerMedia?: OutgoingMedia;
};

export type SendRequest = {
  // Normalised number or group id, as in InboundMessage.from.
  to: string;
  // The text; with a template, the text it makes (what providers without templates send instead).
  body: string;
  // Cloud API: send this template instead of a free-form message. Other drivers send the body.
  template?: TemplateSend;
  media?: OutgoingMedia;
  quotedId?: string;
  isGroup?: boolean;
  // Forwarded from another chat: marked so where the provider can (Baileys; the Cloud API cannot).
  forwarded?: boolean;
  // The same key means the same message. A send retried because a node died before recording the
  // first carries it again, and a provider that can recognise the repeat delivers the message once
  // (Baileys: the WhatsApp message id is derived from it; the simulator: its provider id). The Cloud
  // API has no such thing: there a repeat after a crash can arrive twice.
  idempotencyKey?: string;
};

export type ReactRequest = {
  to: string;
  isGroup?: boolean;
  providerId: string;
  fromMe: boolean;
  participant?: string;
  emoji: string;
};

export type SendResult = {
  providerId: string;
  timestamp: Date;
  // How far the message already got when the send returned (default 1, sent); later steps arrive as
  // ack events.
  ack?: Ack;
};

export type DownloadedMedia = { data: Buffer; mimetype: string; fileName?: string };

// What a session needs from the platform.
export type SessionContext = {
  connection: ConnectionRow;
  // How a driver calls a URL the company gave it (the Cloud API's base URL): platform/outbound.ts.
  fetch: typeof fetch;
  db: Db;
  log: FastifyBaseLogger;
  // Reports an event. Awaiting it means the platform has handled (stored) it.
  emit: (event: ChannelEvent) => Promise<void>;
  // The bytes of a file to send, from the connection's company's storage; undefined when it is gone.
  readMedia: (storedName: string) => Promise<Buffer | undefined>;
};

export type ChannelSession = {
  // Opens the session: resumes a paired one, or starts pairing (QR, or a pairing code for phoneNumber).
  start(options?: { phoneNumber?: string }): Promise<void>;
  // Closes the connection and keeps the pairing, so start() resumes it.
  stop(): Promise<void>;
  // Unpairs the device and forgets the auth state; also called on a session that was never started,
  // to forget a stored pairing.
  logout(): Promise<void>;
  sendMessage(request: SendRequest): Promise<SendResult>;
  deleteMessage(request: { to: string; providerId: string; fromMe: boolean }): Promise<void>;
  // Reacts to a message of the chat `to` ('' takes the reaction back). The message is named by its
  // provider id, whether it was ours (fromMe) and, in groups, who wrote it (participant).
  react(request: ReactRequest): Promise<void>;
  // Shows the contact that the company is writing ("typing…") or stopped. On the Cloud API the
  // indicator rides on the contact's last message (lastInboundId), which it marks read.
  sendPresence(request: {
    to: string;
    isGroup?: boolean;
    typing: boolean;
    lastInboundId?: string;
  }): Promise<void>;
  markRead(request: { from: string; providerIds: string[] }): Promise<void>;
  downloadMedia(message: InboundMessage): Promise<DownloadedMedia>;
  // Asks WhatsApp whether a number has an account: resolves when it does, throws
  // ERR_WAPP_INVALID_CONTACT when it does not and ERR_WAPP_CHECK_CONTACT when the lookup fails.
  // Absent where the provider offers no lookup (the Cloud API).
  checkNumber?(number: string): Promise<void>;
};

export type ChannelDriver = {
  provider: Provider;
  // Pairing by QR code (Baileys, simulator); the Cloud API connects with credentials instead.
  pairs: boolean;
  createSession(context: SessionContext): ChannelSession;
};

// A failure a caller can show: the SPEC code and a human message (answered like any AppError).
type ChannelErrorCode =
  | 'ERR_WAPP_NOT_INITIALIZED'
  | 'ERR_SENDING_WAPP_MSG'
  | 'ERR_DELETE_WAPP_MSG'
  | 'ERR_WAPP_DOWNLOAD_MEDIA'
  | 'ERR_WAPP_INVALID_CONTACT'
  | 'ERR_WAPP_CHECK_CONTACT'
  | 'ERR_FETCH_WAPP_MSG'
  // The Cloud API refused a free-form message: the contact has not written in 24 hours.
  | 'ERR_WAPP_WINDOW_CLOSED'
  // Between nodes (one died, another is taking the session over): a 503 with Retry-After.
  | 'ERR_WAPP_SESSION_MOVING';
// Seconds a caller told ERR_WAPP_SESSION_MOVING waits before asking again.
const SESSION_MOVING_RETRY_AFTER = 2;
export class ChannelError extends AppError {
  declare readonly code: ChannelErrorCode;
  constructor(code: ChannelErrorCode, message: string, cause?: unknown) {
    super(code, message, {
      cause,
      ...(code === 'ERR_WAPP_SESSION_MOVING'
        ? { headers: { 'retry-after': String(SESSION_MOVING_RETRY_AFTER) } }
        : {}),
    });
  }
}

export const sessionMoving = (
  message = 'The connection is moving to another server; try again in a moment',
) => new ChannelError('ERR_WAPP_SESSION_MOVING', message);
