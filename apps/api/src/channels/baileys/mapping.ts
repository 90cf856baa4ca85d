import {
  DisconnectReason,
  isHostedLidUser,
  isHostedPnUser,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidNormalizedUser,
  proto,
  WAMessageStatus,
  WAMessageStubType,
  type BaileysEventMap,
  type ConnectionState,
  type MessageUserReceiptUpdate,
  type WAMessage,
  type WAMessageKey,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import {
  isReactionEmoji,
  type ConnectionCause,
  type ConnectionStatus,
  type MediaType,
} from '@atendi/shared';
import type { Ack, ChannelEvent, InboundMessage } from '../driver';
import { normalizeNumber } from '../numbers';

// Pure translations between Baileys events and the channel layer; the driver wires them to a socket.

// Resolves a LID ('123@lid') to the phone JID or number WhatsApp mapped it to, when known.
export type LidLookup = (lid: string) => string | undefined;

type AckEvent = Extract<ChannelEvent, { type: 'ack' }>;
type TypingEvent = Extract<ChannelEvent, { type: 'typing' }>;
type ProtocolEvent = Extract<ChannelEvent, { type: 'edit' | 'revoke' }>;
type ReactionEvent = Extract<ChannelEvent, { type: 'reaction' }>;
type Timestamp = WAMessage['messageTimestamp'];

type ConnectionStep =
  | { kind: 'qr'; qr: string }
  | { kind: 'open' }
  | { kind: 'close'; statusCode?: number; message?: string }
  | { kind: 'none' };

// The one thing a connection.update asks of us; a close outweighs anything sent with it.
export const mapConnectionUpdate = (update: Partial<ConnectionState>): ConnectionStep => {
  if (update.connection === 'close') {
    const error = update.lastDisconnect?.error as
      { output?: { statusCode?: number }; message?: string } | undefined;
    return { kind: 'close', statusCode: error?.output?.statusCode, message: error?.message };
  }
  if (update.connection === 'open') return { kind: 'open' };
  if (update.qr) return { kind: 'qr', qr: update.qr };
  return { kind: 'none' };
};

type DisconnectState = {
  // The closed socket had reached 'open'.
  wasOpen: boolean;
  // A QR or pairing code was on screen, waiting for the phone.
  waitingForScan: boolean;
  // connectionReplaced closes already seen in a row, before this one.
  replaced: number;
};

type DisconnectPlan = {
  // The status to report; none when reconnecting at once (the new socket reports OPENING).
  status?: ConnectionStatus;
  reconnect: 'now' | 'backoff' | 'never';
  // Forget the pairing: the next start shows a new QR.
  clearAuth: boolean;
  clearQr: boolean;
  reason: string;
  // What the connection's history calls it (none: WhatsApp's own restart, not a problem).
  cause?: ConnectionCause;
};

const reasonOf = (statusCode: number | undefined) =>
  statusCode === undefined ? 'unknown' : (DisconnectReason[statusCode] ?? `code ${statusCode}`);

const unpaired = (reason: string, cause: ConnectionCause): DisconnectPlan => ({
  status: 'DISCONNECTED',
  reconnect: 'never',
  clearAuth: true,
  clearQr: true,
  reason,
  cause,
});

// What to do when a socket closes (DisconnectReason), as a SPEC status and a reconnect policy.
export const mapDisconnect = (
  statusCode: number | undefined,
  state: DisconnectState,
): DisconnectPlan => {
  const reason = reasonOf(statusCode);
  switch (statusCode) {
    case DisconnectReason.loggedOut:
    case DisconnectReason.multideviceMismatch:
      return unpaired(reason, 'logged_out');
    // 403: WhatsApp will not let the number in (banned or restricted).
    case DisconnectReason.forbidden:
      return unpaired(reason, 'banned');
    case DisconnectReason.restartRequired:
      // WhatsApp asks for it right after pairing; not a failure.
      return { reconnect: 'now', clearAuth: false, clearQr: false, reason };
    case DisconnectReason.connectionReplaced:
      // Another client holds the session. Taking it back once covers a stale duplicate; doing it
      // again would start a loop of two clients kicking each other out.
      return state.replaced < 1
        ? {
            status: 'TIMEOUT',
            reconnect: 'backoff',
            clearAuth: false,
            clearQr: false,
            reason,
            cause: 'replaced',
          }
        : {
            status: 'DISCONNECTED',
            reconnect: 'never',
            clearAuth: false,
            clearQr: true,
            reason,
            cause: 'replaced',
          };
    case DisconnectReason.timedOut:
      // The QR codes ran out unscanned: wait for the user to press "try again".
      if (!state.wasOpen && state.waitingForScan) {
        return {
          status: 'DISCONNECTED',
          reconnect: 'never',
          clearAuth: false,
          clearQr: true,
          reason: 'qrTimeout',
          cause: 'qr_timeout',
        };
      }
  }
  // Anything else, badSession (500) included: Baileys also reports unknown stream errors as 500, so
  // forgetting the pairing there could unpair a healthy number. Retry with backoff instead.
  return {
    status: 'TIMEOUT',
    reconnect: 'backoff',
    clearAuth: false,
    clearQr: false,
    reason,
    cause: 'network',
  };
};

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;

// Delay before reconnect attempt number `attempt` (0 first): 1 s, 2 s, 4 s … up to 60 s, each
// ±20 % so many sessions dropped together do not reconnect in step.
export const backoffDelay = (attempt: number, random: () => number = Math.random): number => {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  const jitter = 1 + (random() * 2 - 1) * 0.2;
  return Math.round(Math.min(BACKOFF_MAX_MS, base * jitter));
};

const isPhoneJid = (jid: string | null | undefined): jid is string =>
  !!(isPnUser(jid ?? undefined) || isHostedPnUser(jid ?? undefined));
const isLidJid = (jid: string | null | undefined): jid is string =>
  !!(isLidUser(jid ?? undefined) || isHostedLidUser(jid ?? undefined));

// A contact as the platform names it: its normalised phone number when known, else its LID JID.
const resolveContact = (
  jids: (string | null | undefined)[],
  lookup?: LidLookup,
): { id: string; lid?: string } => {
  const phone = jids.find(isPhoneJid);
  const lidJid = jids.find(isLidJid);
  const lid = lidJid ? jidNormalizedUser(lidJid) : undefined;
  if (phone) return { id: normalizeNumber(phone), lid };
  if (lid) {
    const mapped = lookup?.(lid);
    return { id: mapped ? normalizeNumber(mapped) : lid, lid };
  }
  const [first] = jids;
  return { id: first ? normalizeNumber(first) : '' };
};

// The chat and the author of a message. In v7 a chat may be addressed by LID; the key then
// carries the phone JID in remoteJidAlt / participantAlt.
const addressOf = (key: WAMessageKey, lookup?: LidLookup) => {
  const chat = key.remoteJid ?? '';
  if (isJidGroup(chat)) {
    const author = key.participant
      ? resolveContact([key.participant, key.participantAlt], lookup)
      : undefined;
    return { from: chat, isGroup: true, participant: author?.id, lid: author?.lid };
  }
  // On our own messages the alt JID describes the sender (us), not the chat: trust only the lookup.
  const contact = resolveContact(key.fromMe ? [chat] : [chat, key.remoteJidAlt], lookup);
  return { from: contact.id, isGroup: false, participant: undefined, lid: contact.lid };
};

const ignoredChat = (jid: string) =>
  jid === 'status@broadcast' || !!isJidBroadcast(jid) || !!isJidNewsletter(jid);

const WRAPPERS = [
  'ephemeralMessage',
  'viewOnceMessage',
  'viewOnceMessageV2',
  'viewOnceMessageV2Extension',
  'documentWithCaptionMessage',
  'editedMessage',
] as const;

// The content inside disappearing, view-once, captioned-document and edit wrappers.
const unwrap = (message: proto.IMessage | null | undefined): proto.IMessage | undefined => {
  let content = message ?? undefined;
  // Wrappers nest a few levels at most; the bound guards against a malformed loop.
  for (let depth = 0; depth < 5 && content; depth += 1) {
    const wrapper = WRAPPERS.find((name) => content?.[name]?.message);
    if (!wrapper) break;
    content = content[wrapper]?.message ?? undefined;
  }
  return content;
};

// A protobuf integer (number, Long, or the JSON forms of a Long) as a number.
const longValue = (value: NonNullable<Timestamp> | string): number => {
  if (typeof value !== 'object') return Number(value);
  const long = value as { toNumber?: () => number; low?: number; high?: number };
  return long.toNumber ? long.toNumber() : (long.low ?? 0) + (long.high ?? 0) * 2 ** 32;
};

// A protobuf timestamp in seconds as a Date.
export const toDate = (timestamp: Timestamp | string): Date =>
  timestamp === null || timestamp === undefined
    ? new Date()
    : new Date(longValue(timestamp) * 1000);

type Content = {
  body: string;
  mediaType: MediaType;
  media?: InboundMessage['media'];
  quotedId?: string;
};

const CALL_STUBS = new Set<number>([
  WAMessageStubType.CALL_MISSED_VOICE,
  WAMessageStubType.CALL_MISSED_VIDEO,
  WAMessageStubType.CALL_MISSED_GROUP_VOICE,
  WAMessageStubType.CALL_MISSED_GROUP_VIDEO,
]);
const VIDEO_CALL_STUBS = new Set<number>([
  WAMessageStubType.CALL_MISSED_VIDEO,
  WAMessageStubType.CALL_MISSED_GROUP_VIDEO,
]);

// Call bodies are shown as written in the ticket; Spanish is the product's default language.
const callBody = (video: boolean, missed: boolean) =>
  `${video ? 'Videollamada' : 'Llamada de voz'}${missed ? ' perdida' : ''}`;

const quoted = (part: { contextInfo?: proto.IContextInfo | null } | null | undefined) =>
  part?.contextInfo?.stanzaId ?? undefined;

const text = (body: string, part?: { contextInfo?: proto.IContextInfo | null } | null) =>
  body ? { body, mediaType: 'chat' as const, quotedId: quoted(part) } : null;

const locationBody = (
  lat: number | null | undefined,
  lng: number | null | undefined,
  ...details: (string | null | undefined)[]
) => [`${lat ?? 0},${lng ?? 0}`, ...details.filter((d): d is string => !!d)].join('\n');

// Body, type and file of a message's content; null for anything that is not a message to show.
const contentOf = (c: proto.IMessage): Content | null => {
  if (c.conversation) return text(c.conversation);
  if (c.extendedTextMessage) return text(c.extendedTextMessage.text ?? '', c.extendedTextMessage);
  if (c.imageMessage) {
    const m = c.imageMessage;
    return {
      body: m.caption ?? '',
      mediaType: 'image',
      media: { mimetype: m.mimetype ?? 'image/jpeg' },
      quotedId: quoted(m),
    };
  }
  const video = c.videoMessage ?? c.ptvMessage;
  if (video) {
    return {
      body: video.caption ?? '',
      mediaType: 'video',
      media: { mimetype: video.mimetype ?? 'video/mp4' },
      quotedId: quoted(video),
    };
  }
  if (c.audioMessage) {
    const m = c.audioMessage;
    return {
      body: '',
      mediaType: 'audio',
      media: { mimetype: m.mimetype ?? 'audio/ogg; codecs=opus' },
      quotedId: quoted(m),
    };
  }
  if (c.documentMessage) {
    const m = c.documentMessage;
    return {
      body: m.caption || m.fileName || '',
      mediaType: 'application',
      media: {
        fileName: m.fileName ?? undefined,
        mimetype: m.mimetype ?? 'application/octet-stream',
      },
      quotedId: quoted(m),
    };
  }
  if (c.stickerMessage) {
    const m = c.stickerMessage;
    return {
      body: '',
      mediaType: 'image',
      media: { mimetype: m.mimetype ?? 'image/webp' },
      quotedId: quoted(m),
    };
  }
  if (c.locationMessage) {
    const m = c.locationMessage;
    return {
      body: locationBody(m.degreesLatitude, m.degreesLongitude, m.name, m.address),
      mediaType: 'locationMessage',
      quotedId: quoted(m),
    };
  }
  if (c.liveLocationMessage) {
    const m = c.liveLocationMessage;
    return {
      body: locationBody(m.degreesLatitude, m.degreesLongitude, m.caption),
      mediaType: 'locationMessage',
      quotedId: quoted(m),
    };
  }
  if (c.contactMessage) {
    const m = c.contactMessage;
    return { body: m.vcard || m.displayName || '', mediaType: 'vcard', quotedId: quoted(m) };
  }
  if (c.contactsArrayMessage) {
    const m = c.contactsArrayMessage;
    const cards = (m.contacts ?? []).map((card) => card.vcard).filter((v): v is string => !!v);
    return {
      body: cards.join('\n') || m.displayName || '',
      mediaType: 'vcard',
      quotedId: quoted(m),
    };
  }
  if (c.callLogMesssage) {
    const m = c.callLogMesssage;
    const missed = m.callOutcome === proto.Message.CallLogMessage.CallOutcome.MISSED;
    return { body: callBody(!!m.isVideo, missed), mediaType: 'call_log' };
  }
  if (c.call) return { body: callBody(false, false), mediaType: 'call_log' };
  // Answers to bot menus (buttons and lists) read as the text the contact picked.
  if (c.buttonsResponseMessage) {
    const m = c.buttonsResponseMessage;
    return text(m.selectedDisplayText ?? m.selectedButtonId ?? '', m);
  }
  if (c.templateButtonReplyMessage) {
    const m = c.templateButtonReplyMessage;
    return text(m.selectedDisplayText ?? m.selectedId ?? '', m);
  }
  if (c.listResponseMessage) {
    const m = c.listResponseMessage;
    return text(m.title ?? m.singleSelectReply?.selectedRowId ?? '', m);
  }
  return null;
};

// The text of an edited message (its new text or caption).
const editedText = (content: proto.IMessage | undefined) =>
  content?.conversation ??
  content?.extendedTextMessage?.text ??
  content?.imageMessage?.caption ??
  content?.videoMessage?.caption ??
  content?.documentMessage?.caption ??
  '';

// An incoming (or sent-from-the-phone) message as the channel layer reports it; null for what
// is not a message to show: status updates, reactions, protocol messages, stubs, newsletters.
export const mapMessage = (msg: WAMessage, lookup?: LidLookup): InboundMessage | null => {
  const { key } = msg;
  const chat = key.remoteJid;
  if (!chat || !key.id || ignoredChat(chat)) return null;

  let content: Content | null;
  if (msg.messageStubType) {
    // Missed calls arrive as stubs; every other stub (group changes, failed decryption) is noise.
    if (!CALL_STUBS.has(msg.messageStubType)) return null;
    content = {
      body: callBody(VIDEO_CALL_STUBS.has(msg.messageStubType), true),
      mediaType: 'call_log',
    };
  } else {
    const inner = unwrap(msg.message);
    content = inner ? contentOf(inner) : null;
  }
  if (!content) return null;

  const address = addressOf(key, lookup);
  const fromMe = !!key.fromMe;
  return {
    providerId: key.id,
    from: address.from,
    ...(address.participant ? { participant: address.participant } : {}),
    ...(address.lid ? { lid: address.lid } : {}),
    ...(!fromMe && msg.pushName ? { contactName: msg.pushName } : {}),
    body: content.body,
    mediaType: content.mediaType,
    ...(content.media ? { media: content.media } : {}),
    ...(content.quotedId ? { quotedId: content.quotedId } : {}),
    isGroup: address.isGroup,
    fromMe,
    timestamp: toDate(msg.messageTimestamp),
    // A plain copy: the whole message is needed later to download its media or quote it.
    raw: { ...msg, key: { ...key } } as Record<string, unknown>,
  };
};

// A reaction (reactionMessage: the key of the message reacted to, the emoji, '' when taken back),
// from the contact, a group member or our own number. Anything but one emoji is not shown.
export const mapReaction = (msg: WAMessage, lookup?: LidLookup): ReactionEvent | null => {
  const reaction = unwrap(msg.message)?.reactionMessage;
  const target = reaction?.key?.id;
  const chat = msg.key.remoteJid;
  if (!reaction || !target || !chat || ignoredChat(chat)) return null;
  const emoji = reaction.text ?? '';
  if (emoji && !isReactionEmoji(emoji)) return null;
  const address = addressOf(msg.key, lookup);
  if (!address.from) return null;
  const sentMs = reaction.senderTimestampMs;
  return {
    type: 'reaction',
    providerId: target,
    from: address.from,
    ...(address.participant ? { participant: address.participant } : {}),
    fromMe: !!msg.key.fromMe,
    emoji,
    // WhatsApp's own time of the reaction, to the millisecond: of two reports the later one wins.
    timestamp:
      sentMs !== null && sentMs !== undefined
        ? new Date(longValue(sentMs))
        : toDate(msg.messageTimestamp),
  };
};

// An edit or a deletion, from the protocol message that carries it (messages.upsert) or from the
// update Baileys derives from it (messages.update: the original id with the new content, or a
// REVOKE stub).
export const mapProtocol = (
  msg: Pick<WAMessage, 'key' | 'message' | 'messageStubType'>,
): ProtocolEvent | null => {
  const content = unwrap(msg.message);
  const protocol = content?.protocolMessage;
  const target = protocol?.key?.id;
  const Type = proto.Message.ProtocolMessage.Type;
  if (protocol && target && protocol.type === Type.REVOKE) {
    return { type: 'revoke', providerId: target };
  }
  if (protocol && target && protocol.type === Type.MESSAGE_EDIT) {
    const body = editedText(unwrap(protocol.editedMessage));
    return { type: 'edit', providerId: target, body };
  }
  if (!protocol && msg.message?.editedMessage?.message && msg.key.id) {
    return { type: 'edit', providerId: msg.key.id, body: editedText(content) };
  }
  if (msg.messageStubType === WAMessageStubType.REVOKE && !msg.message && msg.key.id) {
    return { type: 'revoke', providerId: msg.key.id };
  }
  return null;
};

const ackOfReceipt = (receipt: proto.IUserReceipt): Ack | null => {
  if (receipt.playedTimestamp) return 5;
  if (receipt.readTimestamp) return 4;
  if (receipt.receiptTimestamp) return 3;
  return null;
};

// The delivery state of a message we sent: a status change (messages.update) or a group
// member's receipt (message-receipt.update). Receipts for messages we received are not acks.
export const mapAck = (update: WAMessageUpdate | MessageUserReceiptUpdate): AckEvent | null => {
  const { key } = update;
  if (!key.id || !key.fromMe) return null;
  if ('receipt' in update) {
    const ack = ackOfReceipt(update.receipt);
    return ack === null ? null : { type: 'ack', providerId: key.id, ack };
  }
  const status = update.update.status;
  if (status === null || status === undefined) return null;
  const ack = Math.min(Math.max(status, 0), 5) as Ack;
  if (status === WAMessageStatus.ERROR) {
    const [error] = (update.update.messageStubParameters ?? []) as unknown[];
    return { type: 'ack', providerId: key.id, ack, error: String(error ?? 'error') };
  }
  return { type: 'ack', providerId: key.id, ack };
};

const TYPING = new Set(['composing', 'recording']);

// Whether someone is typing (or recording audio) in a chat.
export const mapPresence = (
  update: BaileysEventMap['presence.update'],
  lookup?: LidLookup,
): TypingEvent | null => {
  const states = Object.values(update.presences ?? {});
  if (states.length === 0) return null;
  const from = isJidGroup(update.id) ? update.id : resolveContact([update.id], lookup).id;
  if (!from) return null;
  const typing = states.some((p) => TYPING.has(p.lastKnownPresence));
  return { type: 'typing', from, typing };
};

// The LIDs a message or presence names without their phone JID: the driver resolves these through
// Baileys' LID mapping store before mapping.
export const unresolvedLids = (key: WAMessageKey): string[] => {
  const chat = key.remoteJid ?? '';
  const pair = isJidGroup(chat)
    ? [key.participant, key.participantAlt]
    : key.fromMe
      ? [chat]
      : [chat, key.remoteJidAlt];
  if (pair.some(isPhoneJid)) return [];
  return pair.filter(isLidJid).map((jid) => jidNormalizedUser(jid));
};
