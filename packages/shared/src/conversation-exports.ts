import { z } from 'zod';
import { calendarDate } from './dashboard';
import { dateTime } from './responses';

// A company's conversations taken out (issue 38): every conversation (ticket) that began in a range of
// calendar days of the company's zone, as JSON Lines (one transcript a line, as GET
// /tickets/{id}/transcript.json answers it) or CSV (one message a row), optionally with their files in
// a ZIP. Built in the background with progress, kept for a limited time.

export const conversationExportFormats = ['jsonl', 'csv'] as const;
export const conversationExportStatuses = ['pending', 'running', 'done', 'failed'] as const;

// The longest range one export covers.
export const CONVERSATION_EXPORT_MAX_DAYS = 366;

const dayOf = (text: string) => Date.parse(`${text}T00:00:00Z`);

export const conversationExportCreateSchema = z
  .object({
    dateFrom: calendarDate,
    dateTo: calendarDate,
    format: z.enum(conversationExportFormats),
    // The conversations' files too: the export is then a ZIP with the file and a media/ folder.
    includeMedia: z.boolean().optional().default(false),
  })
  .refine((value) => dayOf(value.dateTo) >= dayOf(value.dateFrom), {
    path: ['dateTo'],
    message: 'The last day comes before the first',
  })
  .refine(
    (value) =>
      (dayOf(value.dateTo) - dayOf(value.dateFrom)) / 86_400_000 < CONVERSATION_EXPORT_MAX_DAYS,
    { path: ['dateTo'], message: `At most ${CONVERSATION_EXPORT_MAX_DAYS} days` },
  );
export type ConversationExportCreateInput = z.input<typeof conversationExportCreateSchema>;

export const conversationExportSchema = z.object({
  id: z.number(),
  status: z.enum(conversationExportStatuses),
  format: z.enum(conversationExportFormats),
  includeMedia: z.boolean(),
  dateFrom: z.string(),
  dateTo: z.string(),
  // Conversations in the range (null until the build counts them) and those written so far.
  total: z.number().nullable(),
  done: z.number(),
  // The file's size in bytes, once built.
  size: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: dateTime,
  finishedAt: dateTime.nullable(),
  // When the file is deleted (null until it is built).
  expiresAt: dateTime.nullable(),
  createdBy: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type ConversationExport = z.input<typeof conversationExportSchema>;
export const conversationExportListSchema = z.object({
  exports: z.array(conversationExportSchema),
});
