import { z } from 'zod';
import type { ContactView } from './tickets';

// SPEC §3 Contact, §5 Contact, §7 "Contacts and lists".

export const CONTACTS_PAGE_SIZE = 20;

// Typed numbers in any notation ('+55 (11) 98888-7777'); the API keeps the digits with the country
// code. Groups and LIDs keep the WhatsApp id they were stored with ('1203…@g.us', '…@lid').
export const contactNumber = z
  .string()
  .trim()
  .min(8)
  .max(50)
  .regex(/^(\+?[\d\s().-]+|[\d-]+@(g\.us|lid))$/, 'Use digits with the country code');

const optionalEmail = z
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

export type ContactExtraInfo = { id: number; name: string; value: string };

// GET /contacts/{id}, POST, PUT and the live event.
export type ContactDetailView = ContactView & { extraInfo: ContactExtraInfo[] };

// GET /contacts: count is the number of contacts the search matches.
export type ContactListPage = { contacts: ContactView[]; count: number; hasMore: boolean };

// GET /contacts/list: what a select shows.
export type ContactOption = Pick<ContactView, 'id' | 'name' | 'number' | 'email'>;

// company-{id}-contact (SPEC §7 Real-time).
export type ContactEvent =
  | { action: 'create' | 'update'; contact: ContactDetailView }
  | { action: 'delete'; contactId: number };
