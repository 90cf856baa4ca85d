import { z } from 'zod';

// SPEC §3 Tag, §7 Tags and "Tags on tickets".

export const TAG_DEFAULT_COLOR = '#A4CCCC';

export const tagSchema = z.object({
  // SPEC §5 Tag: at least 3 characters.
  name: z.string().trim().min(3).max(50),
  color: z
    .string()
    .trim()
    .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'Use a hex colour')
    .optional()
    .default(TAG_DEFAULT_COLOR),
  // 1 makes the tag a kanban lane.
  kanban: z.coerce.number().int().min(0).max(1).optional().default(0),
});
export type TagInput = z.infer<typeof tagSchema>;

// POST /tags/sync: the ticket's tags become exactly these (the client sends the tags it shows).
export const tagSyncSchema = z.object({
  ticketId: z.coerce.number().int().positive(),
  tags: z
    .array(z.object({ id: z.coerce.number().int().positive() }))
    .max(100)
    .default([]),
});
export type TagSyncInput = z.infer<typeof tagSyncSchema>;

export const ticketTagParams = z.object({
  ticketId: z.coerce.number().int().positive(),
  tagId: z.coerce.number().int().positive(),
});

// GET /tags/list, POST /tags and the live event.
export type TagOption = { id: number; name: string; color: string; kanban: number };

export type TagEvent =
  { action: 'create' | 'update'; tag: TagOption } | { action: 'delete'; tagId: number };
