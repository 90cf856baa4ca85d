import { z } from 'zod';
import { dialableNumber } from './contacts';
import { MESSAGE_BODY_MAX } from './messages';
import { dateTime } from './responses';

// SPEC §7 External messages API (contracts/external-api.ts): POST /api/messages/send with
// `Authorization: Bearer {connection token}`. Text as JSON { number, body }; media as
// multipart/form-data with number, body (the caption of the first file) and one or more `medias`
// files.

// A retried call carrying the same key (any text of 1 to 255 visible characters) answers the first
// call's messages instead of sending again, for a day.
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_MAX = 255;
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

// The number to message (contacts.ts `dialableNumber`); a JSON number is taken as its digits.
export const externalNumber = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : value),
  dialableNumber,
);

// The JSON form (text only).
export const externalSendSchema = z.object({
  number: externalNumber,
  body: z
    .string()
    .max(MESSAGE_BODY_MAX)
    .refine((text) => text.trim().length > 0, 'Write the message'),
});
export type ExternalSendInput = z.infer<typeof externalSendSchema>;

// How far a message got: queued (stored, waiting for the connection), sent (WhatsApp has it),
// delivered, read, or failed (every attempt was refused; it can be retried from the chat).
export const externalMessageStatuses = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;
export type ExternalMessageStatus = (typeof externalMessageStatuses)[number];

export const externalSentMessageSchema = z.object({
  id: z.number(),
  status: z.enum(externalMessageStatuses),
  body: z.string(),
  mediaType: z.string(),
  createdAt: dateTime,
});

// One message per file (the body goes with the first), or the text alone.
export const externalSendResponseSchema = z.object({
  ticketId: z.number(),
  contactId: z.number(),
  // The number as stored (digits with the country code).
  number: z.string(),
  messages: z.array(externalSentMessageSchema),
});
export type ExternalSendResponse = z.input<typeof externalSendResponseSchema>;
