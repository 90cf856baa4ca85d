import { z } from 'zod';
import { dateTime } from './responses';

// SPEC §3 File list, §5 File list rule, §7 Files: named lists of files a campaign can send.

export const FILES_PAGE_SIZE = 20;
// Options (files) one list may hold, and so the files one upload may carry.
export const FILE_LIST_MAX_OPTIONS = 20;

export const FILE_LIST_NAME_MIN = 3;
export const FILE_LIST_NAME_MAX = 100;
export const FILE_LIST_MESSAGE_MAX = 10000;
export const FILE_LIST_OPTION_NAME_MAX = 200;

const optionId = z.coerce.number().int().positive();
const optionName = z.string().trim().min(1).max(FILE_LIST_OPTION_NAME_MAX);
// The file's MIME type, as the browser tells it before the upload.
const optionMediaType = z.string().trim().max(150);

export const fileListOptionSchema = z.object({
  name: optionName,
  mediaType: optionMediaType.optional(),
});

// SPEC §5 File list: name required, at least 3 characters; message required.
const fileListFields = {
  name: z.string().trim().min(FILE_LIST_NAME_MIN).max(FILE_LIST_NAME_MAX),
  message: z.string().trim().min(1).max(FILE_LIST_MESSAGE_MAX),
};

export const fileListSchema = z.object({
  ...fileListFields,
  options: z.array(fileListOptionSchema).max(FILE_LIST_MAX_OPTIONS).optional().default([]),
});
export type FileListInput = z.infer<typeof fileListSchema>;

// PUT /files/{id}: options with an id are kept (and renamed), without one are added, and the
// list's other options are removed with their files. Leaving options out keeps them as they are.
export const fileListUpdateSchema = z.object({
  ...fileListFields,
  options: z
    .array(fileListOptionSchema.extend({ id: optionId.optional() }))
    .max(FILE_LIST_MAX_OPTIONS)
    .optional(),
});
export type FileListUpdateInput = z.infer<typeof fileListUpdateSchema>;

const optionalId = z.coerce.number().int().positive().optional();

// GET /files: a page of the search, or (with companyId, as the campaign form asks) every list.
export const filesQuery = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  companyId: optionalId,
});
export const filesListQuery = z.object({ companyId: optionalId });

export const fileListOptionViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  // The stored file's name ('' until a file is uploaded) and its MIME type.
  path: z.string(),
  mediaType: z.string(),
  // A signed link to the file, null without one.
  url: z.string().nullable(),
});
export type FileListOptionView = z.input<typeof fileListOptionViewSchema>;

export const fileListViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  message: z.string(),
  companyId: z.number(),
  options: z.array(fileListOptionViewSchema),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type FileListView = z.input<typeof fileListViewSchema>;

export const fileListsPageSchema = z.object({
  files: z.array(fileListViewSchema),
  hasMore: z.boolean(),
});
export type FileListsPage = z.input<typeof fileListsPageSchema>;

// SPEC §7 company-{id}-file.
export type FileListEvent =
  { action: 'create' | 'update'; files: FileListView } | { action: 'delete'; fileId: number };
