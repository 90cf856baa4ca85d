import { z } from 'zod';
import { contactViewSchema } from './tickets';

// SPEC §3 Contact, §5 Contact, §7 "Contacts and lists".

export const CONTACTS_PAGE_SIZE = 20;

// Typed numbers in any notation ('+55 (11) 98888-7777', or '(11) 98888-7777' in a Brazilian company);
// the API reads them with the company's country (phone.ts, parseWhatsAppNumber) and keeps the digits
// with the country code. Groups and LIDs keep the WhatsApp id they were stored with
// ('1203…@g.us', '…@lid').
export const contactNumber = z
  .string()
  .trim()
  .min(8)
  .max(50)
  .regex(/^(\+?[\d\s().-]+|[\d-]+@(g\.us|lid))$/, 'Use a phone number');

// A phone number someone types to be messaged (the external API, contact list items): in any
// notation, with its country code or local to the company's country, 8 to 15 digits. Never a group
// or LID.
export const dialableNumber = z
  .string()
  .trim()
  .min(8)
  .max(50)
  .regex(/^\+?[\d\s().-]+$/, 'Use a phone number')
  .refine((text) => {
    const digits = text.replace(/\D/g, '').length;
    return digits >= 8 && digits <= 15;
  }, 'Use 8 to 15 digits');

// An email address, or nothing.
export const optionalEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(200)
  .pipe(z.union([z.literal(''), z.email({ message: 'Invalid email' })]));

export const contactExtraInfoSchema = z.object({
  // The client may send back the ids it was given; the list is replaced as a whole.
  id: z.coerce.number().int().positive().optional(),
  name: z.string().trim().min(1).max(100),
  value: z.string().trim().max(1000).optional().default(''),
});

export const contactSchema = z.object({
  name: z.string().trim().min(2).max(50),
  number: contactNumber,
  email: optionalEmail.optional().default(''),
  extraInfo: z.array(contactExtraInfoSchema).max(50).optional().default([]),
});
// PUT changes the fields it names; extraInfo, when given, replaces the contact's list.
export const contactUpdateSchema = z.object({
  name: contactSchema.shape.name.optional(),
  number: contactNumber.optional(),
  email: optionalEmail.optional(),
  extraInfo: z.array(contactExtraInfoSchema).max(50).optional(),
});
export type ContactInput = z.infer<typeof contactSchema>;
export type ContactUpdateInput = z.infer<typeof contactUpdateSchema>;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'Use YYYY-MM-DD')
  .optional();
export const contactListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  // Created on that day, or between two days (inclusive).
  date: day,
  dateStart: day,
  dateEnd: day,
});
export type ContactListQuery = z.infer<typeof contactListQuery>;

export const contactExtraInfoViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  value: z.string(),
});
export type ContactExtraInfo = z.input<typeof contactExtraInfoViewSchema>;

// GET /contacts/{id}, POST, PUT and the live event.
export const contactDetailViewSchema = contactViewSchema.extend({
  extraInfo: z.array(contactExtraInfoViewSchema),
});
export type ContactDetailView = z.input<typeof contactDetailViewSchema>;

// GET /contacts: count is the number of contacts the search matches.
export const contactListPageSchema = z.object({
  contacts: z.array(contactViewSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type ContactListPage = z.input<typeof contactListPageSchema>;

// GET /contacts/list: what a select shows.
export const contactOptionSchema = contactViewSchema.pick({
  id: true,
  name: true,
  number: true,
  email: true,
});
export type ContactOption = z.input<typeof contactOptionSchema>;

// company-{id}-contact (SPEC §7 Real-time).
export type ContactEvent =
  | { action: 'create' | 'update'; contact: ContactDetailView }
  | { action: 'delete'; contactId: number };

// POST /contacts/upload: the rows of a spreadsheet's first sheet, as objects keyed by the header
// cells. The web sends a long sheet in chunks (to show progress); firstRow is the sheet row of
// rows[0], so errors name the row the user sees.
export const CONTACT_UPLOAD_MAX_ROWS = 500;
export const contactUploadSchema = z.object({
  rows: z
    .array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])))
    .max(CONTACT_UPLOAD_MAX_ROWS),
  firstRow: z.coerce.number().int().min(1).optional().default(2),
});
export type ContactUploadInput = z.infer<typeof contactUploadSchema>;

// One refused row: its sheet row, what it said, and why (an error code; field for ERR_VALIDATION).
export const contactUploadErrorSchema = z.object({
  row: z.number(),
  name: z.string(),
  number: z.string(),
  // ERR_INVALID_NUMBER: no phone number (of the company's country, or with a country code). The
  // WhatsApp codes: the number is not on WhatsApp, or WhatsApp could not tell (try again).
  error: z.enum([
    'ERR_VALIDATION',
    'ERR_INVALID_NUMBER',
    'ERR_DUPLICATED_CONTACT',
    'ERR_WAPP_INVALID_CONTACT',
    'ERR_WAPP_CHECK_CONTACT',
  ]),
  field: z.enum(['name', 'number', 'email']).optional(),
  message: z.string(),
});
export type ContactUploadError = z.input<typeof contactUploadErrorSchema>;
export const contactUploadResultSchema = z.object({
  newContacts: z.array(contactViewSchema),
  errorBag: z.array(contactUploadErrorSchema),
});
export type ContactUploadResult = z.input<typeof contactUploadResultSchema>;

// POST /contacts/import: the address book of the connection's phone (default connection if none).
export const contactImportSchema = z
  .object({ whatsappId: z.coerce.number().int().positive().optional() })
  .optional()
  .default({});
