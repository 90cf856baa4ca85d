import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  contactDetailViewSchema,
  contactImportSchema,
  contactListPageSchema,
  contactListQuery,
  contactOptionSchema,
  contactSchema,
  contactUpdateSchema,
  contactUploadResultSchema,
  contactUploadSchema,
} from '../contacts';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';

const detail = okResponse(contactDetailViewSchema);
const uploaded = okResponse(contactUploadResultSchema);

// SPEC §7 Contacts: every profile reads and edits them; deleting one is a permission of its own.
export const contactsContract = defineRoutes('contacts', {
  listContacts: {
    method: 'GET',
    path: '/contacts',
    summary: 'List contacts, a page at a time',
    query: contactListQuery,
    response: okResponse(contactListPageSchema),
  },
  listContactOptions: {
    method: 'GET',
    path: '/contacts/list',
    summary: "List every contact's id, name and number (pickers)",
    query: z.object({ companyId: z.coerce.number().int().positive().optional() }),
    response: okResponse(z.array(contactOptionSchema)),
  },
  getContact: {
    method: 'GET',
    path: '/contacts/:id',
    summary: 'Read one contact with its extra fields',
    params: idParam,
    response: detail,
  },
  createContact: {
    method: 'POST',
    path: '/contacts',
    summary: 'Create a contact',
    body: contactSchema,
    response: createdResponse(contactDetailViewSchema),
  },
  uploadContacts: {
    method: 'POST',
    path: '/contacts/upload',
    summary: 'Add spreadsheet rows as contacts; refused rows are listed',
    body: contactUploadSchema,
    response: uploaded,
  },
  importPhoneContacts: {
    method: 'POST',
    path: '/contacts/import',
    summary: "Add the paired phone's address book as contacts",
    body: contactImportSchema,
    response: uploaded,
  },
  updateContact: {
    method: 'PUT',
    path: '/contacts/:id',
    summary: 'Change a contact',
    params: idParam,
    body: contactUpdateSchema,
    response: detail,
  },
  deleteContact: {
    method: 'DELETE',
    path: '/contacts/:id',
    summary: 'Delete a contact with its tickets and messages',
    params: idParam,
    response: noContentResponse,
  },
});
