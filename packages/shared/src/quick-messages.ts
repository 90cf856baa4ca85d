import { z } from 'zod';
import { dateTime } from './responses';

// SPEC §3 Quick message, §7 "Quick messages": answers an agent inserts from the composer with "/".

export const QUICK_MESSAGES_PAGE_SIZE = 20;
// SPEC §9: the composer's list shows each answer's text cut at 35 characters.
export const QUICK_MESSAGE_PREVIEW_CHARS = 35;

export const quickMessageSchema = z.object({
  // SPEC §5: shortcode required ('Campo Obligatorio').
  shortcode: z.string().trim().min(1).max(100),
  message: z.string().max(10000).optional().default(''),
  // true: the whole company sees it; false: only its author.
  geral: z.boolean().optional().default(false),
  status: z.boolean().optional().default(true),
  // Issue 36: an answer of one queue (its agents use it); only when not company-wide.
  queueId: z.coerce.number().int().positive().nullable().optional(),
});
export const quickMessageUpdateSchema = z
  .object({
    shortcode: quickMessageSchema.shape.shortcode,
    message: z.string().max(10000),
    geral: z.boolean(),
    status: z.boolean(),
    queueId: z.coerce.number().int().positive().nullable(),
  })
  .partial();
export type QuickMessageInput = z.infer<typeof quickMessageSchema>;
export type QuickMessageUpdateInput = z.infer<typeof quickMessageUpdateSchema>;

const optionalId = z.coerce.number().int().positive().optional();

export const quickMessagesQuery = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  // Accepted as SPEC's client sends it; the list is always the caller's own view.
  userId: optionalId,
});
// SPEC §7: the composer's list is asked for with companyId and userId; both come from the session.
export const quickMessagesListQuery = z.object({ companyId: optionalId, userId: optionalId });

export const quickMessageViewSchema = z.object({
  id: z.number(),
  shortcode: z.string(),
  message: z.string(),
  geral: z.boolean(),
  status: z.boolean(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  // A signed link to the attachment (SPEC §7 media-upload), null without one.
  mediaUrl: z.string().nullable(),
  isMedia: z.boolean(),
  userId: z.number().nullable(),
  // The queue whose agents share it (null: company-wide or personal).
  queueId: z.number().nullable(),
  companyId: z.number(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type QuickMessageView = z.input<typeof quickMessageViewSchema>;

export const quickMessagesPageSchema = z.object({
  records: z.array(quickMessageViewSchema),
  hasMore: z.boolean(),
});
export type QuickMessagesPage = z.input<typeof quickMessagesPageSchema>;

// SPEC §7 company-{id}-quickemessage.
export type QuickMessageEvent =
  { action: 'create' | 'update'; record: QuickMessageView } | { action: 'delete'; id: number };

// The composer's preview of an answer: SPEC §9 cuts it at 35 characters.
export const quickMessagePreview = (message: string) =>
  message.length > QUICK_MESSAGE_PREVIEW_CHARS
    ? `${message.slice(0, QUICK_MESSAGE_PREVIEW_CHARS)}…`
    : message;
