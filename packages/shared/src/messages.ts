import { z } from 'zod';

// SPEC §7 "Tickets and messages": GET/POST /messages/{ticketId}, DELETE /messages/{id}.

// One page of a conversation; page 1 holds the latest messages.
export const MESSAGES_PAGE_SIZE = 20;
// What one send may carry (WhatsApp's own limits, rounded down).
export const MESSAGE_BODY_MAX = 65536;
export const MESSAGE_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
export const MESSAGE_MEDIA_MAX_FILES = 10;

// Files WhatsApp takes as image, audio, video or document. Lower case, with the dot.
export const messageMediaExtensions = [
  '.jpg',
  '.jpeg',
  '.png',
  '.gif',
  '.webp',
  '.heic',
  '.ogg',
  '.oga',
  '.opus',
  '.mp3',
  '.m4a',
  '.aac',
  '.amr',
  '.wav',
  '.mp4',
  '.3gp',
  '.mov',
  '.webm',
  '.mkv',
  '.avi',
  '.pdf',
  '.doc',
  '.docx',
  '.xls',
  '.xlsx',
  '.ppt',
  '.pptx',
  '.odt',
  '.ods',
  '.odp',
  '.rtf',
  '.txt',
  '.csv',
  '.vcf',
  '.zip',
  '.rar',
  '.7z',
] as const;

export const ticketIdParam = z.object({ ticketId: z.coerce.number().int().positive() });

export const messageListQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  // false: look without reading (an admin's peek at a waiting ticket keeps its unread badge).
  markRead: z.stringbool().optional().default(true),
});
export type MessageListQuery = z.infer<typeof messageListQuery>;

const messageId = z.coerce.number().int().positive();
// SPEC's web client sends the quoted message itself; other clients send its id.
export const quotedMsgField = z
  .union([z.null(), z.literal(''), messageId, z.object({ id: messageId })])
  .optional()
  .transform((value) =>
    value === undefined || value === null || value === ''
      ? null
      : typeof value === 'object'
        ? value.id
        : value,
  );

// The JSON form of a send (a multipart send carries body and quotedMsg as fields next to medias).
// read, fromMe and mediaUrl are accepted for SPEC clients and ignored: a send is always fromMe and read.
export const messageSendSchema = z.object({
  body: z
    .string()
    .max(MESSAGE_BODY_MAX)
    .refine((text) => text.trim().length > 0, 'Write a message or attach a file'),
  quotedMsg: quotedMsgField,
  read: z.union([z.boolean(), z.number()]).optional(),
  fromMe: z.union([z.boolean(), z.number()]).optional(),
  mediaUrl: z.string().max(2000).nullable().optional(),
});
export type MessageSendInput = z.infer<typeof messageSendSchema>;

// One emoji as WhatsApp takes it for a reaction: a single grapheme (skin tones, flags and ZWJ
// sequences included) that is a pictograph, a flag or a keycap. WhatsApp removes a reaction when it
// is given the empty text.
const oneEmoji = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|[#*0-9]\uFE0F?\u20E3)/u;
export const isReactionEmoji = (text: string): boolean => {
  if (!text || text.length > 32 || !oneEmoji.test(text)) return false;
  const graphemes = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)];
  return graphemes.length === 1;
};

// PUT /messages/{id}/reaction: the company's reaction to a message (issue 39); '' takes it back.
export const messageReactionSchema = z.object({
  emoji: z
    .string()
    .refine((text) => text === '' || isReactionEmoji(text), 'One emoji, or empty to remove it'),
});
export type MessageReactionInput = z.infer<typeof messageReactionSchema>;

// POST /messages/forward (issue 39): messages of the caller's conversations (text and files, in the
// order they were written) forwarded to a contact, into their open conversation on the first
// message's connection (a new one, held by the caller, when they have none).
export const MESSAGE_FORWARD_MAX = 20;
export const messageForwardSchema = z.object({
  messageIds: z.array(messageId).min(1).max(MESSAGE_FORWARD_MAX),
  contactId: z.coerce.number().int().positive(),
});
export type MessageForwardInput = z.infer<typeof messageForwardSchema>;

// POST /messages/{ticketId}/typing: the agent is writing in the chat (or stopped): WhatsApp shows
// the contact "typing…" (issue 39), as often as it needs, whatever the browser sends.
export const agentTypingSchema = z.object({ typing: z.boolean() });
