import { useQueryClient } from '@tanstack/react-query';
import {
  CONTACT_UPLOAD_MAX_ROWS,
  contactsContract,
  ticketsContract,
  type ContactEvent,
  type ContactInput,
  type ContactOption,
  type ContactUploadResult,
  type TicketCreateInput,
} from '@atendi/shared';
import { ApiError, call } from '../../api/http-client';
import { applyContactEventToCache } from '../../api/queries/contacts';
import { useCompanyEvent } from '../../api/socket';
import type { SheetRow } from '../../lib/contact-sheet';
import { saveCsv } from '../../lib/save-file';

// The contacts page's changes, import and export; what it reads is api/queries/contacts.ts.

export const createContact = (input: ContactInput) =>
  call(contactsContract.createContact, { body: input });
export const updateContact = (id: number, input: ContactInput) =>
  call(contactsContract.updateContact, { params: { id }, body: input });
export const deleteContact = (id: number) =>
  call(contactsContract.deleteContact, { params: { id } });

// company-{id}-contact: { action, contact } or { action: 'delete', contactId }.
export const useContactLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<ContactEvent>('contact', (event) => {
    if ((event?.action === 'delete' && event.contactId) || (event && 'contact' in event))
      applyContactEventToCache(queryClient, event);
  });
};

// --- Import (SPEC §5: .xlsx, first sheet; or a CSV, issue 38) ----------------------------------

// Sends the rows in chunks, so a long sheet shows progress and no request grows too large. The
// errors of every chunk are kept; the sheet's (or CSV's) first data row is row 2.
export const uploadContacts = async (
  rows: SheetRow[],
  onProgress: (share: number) => void,
): Promise<ContactUploadResult> => {
  const result: ContactUploadResult = { newContacts: [], errorBag: [] };
  onProgress(0);
  for (let start = 0; start < rows.length; start += CONTACT_UPLOAD_MAX_ROWS) {
    const chunk = rows.slice(start, start + CONTACT_UPLOAD_MAX_ROWS);
    const answer = await call(contactsContract.uploadContacts, {
      body: { rows: chunk, firstRow: start + 2 },
    });
    result.newContacts.push(...answer.newContacts);
    result.errorBag.push(...answer.errorBag);
    onProgress((start + chunk.length) / rows.length);
  }
  return result;
};

// POST /contacts/import: the phone's address book, where the connection offers it.
export const importPhoneContacts = () => call(contactsContract.importPhoneContacts, { body: {} });

// --- Export (SPEC §9: CSV with ';' of name, number and email) ----------------------------------

// OWASP CSV injection: a cell starting like a formula is read as text behind a quote, and quoted.
const FORMULA_START = /^[=+\-@\t\r]/;

const csvCell = (value: string) => {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return text !== value || /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const contactsCsv = (contacts: Pick<ContactOption, 'name' | 'number' | 'email'>[]) =>
  [['name', 'number', 'email'], ...contacts.map(({ name, number, email }) => [name, number, email])]
    .map((row) => row.map(csvCell).join(';'))
    .join('\r\n');

export const exportContacts = async () => {
  const contacts = await call(contactsContract.listContactOptions);
  saveCsv(`${contactsCsv(contacts)}\r\n`, 'contacts.csv');
};

// --- Open a conversation -----------------------------------------------------------------------

// Starts a conversation with the contact, or finds the one it already has (the API names it in
// ERR_OTHER_OPEN_TICKET) when nobody else is attending it; answers the ticket's uuid. A conversation
// another attendant holds stays refused (the toast names them).
export const openTicketFor = async (input: TicketCreateInput, myName: string): Promise<string> => {
  try {
    return (await call(ticketsContract.createTicket, { body: input })).uuid;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'ERR_OTHER_OPEN_TICKET') throw error;
    const ticket = error.details?.ticket as { uuid?: string } | undefined;
    const holder = error.details?.user as { name?: string } | null | undefined;
    if (ticket?.uuid && (!holder || holder.name === myName)) return ticket.uuid;
    throw error;
  }
};
