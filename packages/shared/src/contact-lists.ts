import { z } from 'zod';
import { dialableNumber, optionalEmail } from './contacts';
import { dateTime } from './responses';

// SPEC §3 Contact list and Contact list item, §5 rules, §7 "Contact lists" and "Contact list items":
// the audiences of campaigns. An item is a number to message, not necessarily a contact yet.

export const CONTACT_LISTS_PAGE_SIZE = 20;
export const CONTACT_LIST_ITEMS_PAGE_SIZE = 20;

const pageNumber = z.coerce.number().int().min(1).max(100000).optional().default(1);
const searchParam = z.string().max(200).optional().default('');

// SPEC §5 Contact list: name required, 2 to 50 characters.
export const contactListSchema = z.object({
  name: z.string().trim().min(2).max(50),
});
export type ContactListInput = z.infer<typeof contactListSchema>;

// GET /contact-lists: the lists page's table, searched by name.
export const contactListsQuery = z.object({ searchParam, pageNumber });

export const contactListViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  companyId: z.number(),
  contactsCount: z.number(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type ContactListView = z.input<typeof contactListViewSchema>;

export const contactListsPageSchema = z.object({
  records: z.array(contactListViewSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type ContactListsPage = z.input<typeof contactListsPageSchema>;

// company-{id}-ContactList
export type ContactListEvent =
  { action: 'create' | 'update'; record: ContactListView } | { action: 'delete'; id: number };

// SPEC §5 Contact list item: name 2 to 50; number 8 to 50; email valid (or empty).
export const contactListItemSchema = z.object({
  name: z.string().trim().min(2).max(50),
  number: dialableNumber,
  email: optionalEmail.optional().default(''),
  contactListId: z.coerce.number().int().positive(),
});
export type ContactListItemInput = z.infer<typeof contactListItemSchema>;

// PUT /contact-list-items/{id}: the fields to change (an item stays in its list).
export const contactListItemUpdateSchema = z.object({
  name: z.string().trim().min(2).max(50).optional(),
  number: dialableNumber.optional(),
  email: optionalEmail.optional(),
});
export type ContactListItemUpdateInput = z.infer<typeof contactListItemUpdateSchema>;

// GET /contact-list-items: one list's items, searched by name, number or email.
export const contactListItemsQuery = z.object({
  searchParam,
  pageNumber,
  contactListId: z.coerce.number().int().positive(),
});

export const contactListItemViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  // Digits with the country code, as WhatsApp knows the number.
  number: z.string(),
  email: z.string(),
  companyId: z.number(),
  contactListId: z.number(),
  // Whether WhatsApp has an account for the number: true or false once a connection could look it
  // up, null while unknown (no connection able to look numbers up, e.g. the Cloud API).
  isWhatsappValid: z.boolean().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type ContactListItemView = z.input<typeof contactListItemViewSchema>;

export const contactListItemsPageSchema = z.object({
  contacts: z.array(contactListItemViewSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type ContactListItemsPage = z.input<typeof contactListItemsPageSchema>;

// company-{id}-ContactListItem
export type ContactListItemEvent =
  | { action: 'create' | 'update'; record: ContactListItemView }
  | { action: 'delete'; id: number; contactListId: number };

// POST /contact-lists/{id}/upload: a .xlsx file (first sheet; a header row naming the name, number
// and email columns, in Spanish, Portuguese or English). Every row is judged on its own: a bad row is
// listed and never stops the others.
export const CONTACT_LIST_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const CONTACT_LIST_UPLOAD_MAX_ROWS = 20000;
// What the file's parts may inflate to, all together: a full sheet of ten columns is about 10 MB.
export const CONTACT_LIST_UPLOAD_MAX_UNZIPPED_BYTES = 32 * 1024 * 1024;

export const contactListUploadErrorSchema = z.object({
  // The row of the sheet (the header is row 1).
  row: z.number(),
  name: z.string(),
  number: z.string(),
  error: z.enum(['ERR_VALIDATION', 'ERR_INVALID_NUMBER', 'ERR_DUPLICATED_LIST_ITEM']),
  message: z.string(),
  field: z.enum(['name', 'number', 'email']).optional(),
});
export type ContactListUploadError = z.input<typeof contactListUploadErrorSchema>;

export const contactListUploadResultSchema = z.object({
  created: z.number(),
  errors: z.array(contactListUploadErrorSchema),
  contactsCount: z.number(),
});
export type ContactListUploadResult = z.input<typeof contactListUploadResultSchema>;
