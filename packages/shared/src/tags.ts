import { z } from 'zod';

// SPEC §3 Tag, §7 Tags and "Tags on tickets".

export const TAG_DEFAULT_COLOR = '#A4CCCC';

const tagColor = z
  .string()
  .trim()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'Use a hex colour');
// 1 makes the tag a kanban lane.
const tagKanban = z.coerce.number().int().min(0).max(1);

export const tagSchema = z.object({
  // SPEC §5 Tag: at least 3 characters.
  name: z.string().trim().min(3).max(50),
  color: tagColor.optional().default(TAG_DEFAULT_COLOR),
  kanban: tagKanban.optional().default(0),
});
export type TagInput = z.infer<typeof tagSchema>;

// PUT /tags/{id}: the same rules; a colour or kanban flag left out stays as it was.
export const tagUpdateSchema = tagSchema.extend({
  color: tagColor.optional(),
  kanban: tagKanban.optional(),
});
export type TagUpdateInput = z.infer<typeof tagUpdateSchema>;

export const TAGS_PAGE_SIZE = 20;

// GET /tags: the tags page's table, searched by name.
export const tagsQuery = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});

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
export const tagOptionSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  kanban: z.number(),
});
export type TagOption = z.input<typeof tagOptionSchema>;

// GET /tags and GET /tags/{id}: a tag with how many tickets carry it.
export const tagViewSchema = tagOptionSchema.extend({
  userId: z.number().nullable(),
  ticketsCount: z.number(),
});
export type TagView = z.input<typeof tagViewSchema>;
export const tagsPageSchema = z.object({ tags: z.array(tagViewSchema), hasMore: z.boolean() });
export type TagsPage = z.input<typeof tagsPageSchema>;

export type TagEvent =
  { action: 'create' | 'update'; tag: TagOption } | { action: 'delete'; tagId: number };
