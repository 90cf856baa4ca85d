import {
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import {
  contactsContract,
  tagsContract,
  ticketNotesContract,
  ticketsContract,
  type ContactDetailView,
  type ContactEvent,
  type ContactUpdateInput,
  type TicketDetail,
  type TicketListPage,
  type TicketEvent,
  type TicketNoteView,
  type TicketView,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { contactKeys } from '../../api/queries/contacts';
import { useCompanyEvent } from '../../api/socket';
import { applyTicketEventToCache, ticketsKeys, useTicketViewer } from './tickets.api';

// What the chat's contact drawer reads and changes: the contact, the ticket's notes and its tags (the
// tags to pick from: api/queries/tags.ts, shared).

// GET /ticket-notes/list and POST /ticket-notes.
export type TicketNote = TicketNoteView;

const contactDrawerKeys = {
  notes: (ticketId: number) => ['tickets', 'notes', ticketId] as const,
};

const updateContact = (id: number, input: ContactUpdateInput) =>
  call(contactsContract.updateContact, { params: { id }, body: input });
const fetchTicketNotes = (ticketId: number, contactId: number) =>
  call(ticketNotesContract.listTicketNotes, { query: { ticketId, contactId } });
const addTicketNote = (input: { note: string; ticketId: number; contactId: number }) =>
  call(ticketNotesContract.createTicketNote, { body: input });
const deleteTicketNote = (id: number) =>
  call(ticketNotesContract.deleteTicketNote, { params: { id } });
const syncTicketTags = (ticketId: number, tags: { id: number }[]) =>
  call(tagsContract.syncTicketTags, { body: { ticketId, tags: tags.map(({ id }) => ({ id })) } });

// Tickets embed their contact: the chat header and the lists take the new name and picture too.
const withContact = (ticket: TicketView, contact: ContactDetailView): TicketView => {
  if (ticket.contactId !== contact.id) return ticket;
  const { extraInfo: _extraInfo, ...view } = contact;
  return { ...ticket, contact: view };
};

const applyContactToCache = (queryClient: QueryClient, contact: ContactDetailView) => {
  queryClient.setQueryData(contactKeys.detail(contact.id), contact);
  queryClient.setQueriesData<TicketView>({ queryKey: ticketsKeys.details }, (ticket) =>
    ticket ? withContact(ticket, contact) : ticket,
  );
  queryClient.setQueriesData<InfiniteData<TicketListPage, number>>(
    { queryKey: ticketsKeys.lists },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          tickets: page.tickets.map((ticket) => withContact(ticket, contact)),
        })),
      },
  );
};

// SPEC §4 Live updates: company-{id}-contact refreshes the drawer (and what shows the contact).
export const useContactLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<ContactEvent>('contact', (event) => {
    if ((event?.action === 'update' || event?.action === 'create') && event.contact)
      applyContactToCache(queryClient, event.contact);
    else if (event?.action === 'delete' && typeof event.contactId === 'number')
      queryClient.removeQueries({ queryKey: contactKeys.detail(event.contactId) });
  });
};

export const useUpdateContact = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ContactUpdateInput) => updateContact(id, input),
    // The dialog explains a refused number itself.
    meta: { silent: true },
    onSuccess: (contact) => applyContactToCache(queryClient, contact),
  });
};

// What the drawer shows of a ticket besides its view (its notes, its insight) is read again when the
// ticket's update says that part changed (`changed`), not on every message.
export const useRereadOnChange = (ticketId: number, detail: TicketDetail, queryKey: QueryKey) => {
  const queryClient = useQueryClient();
  useCompanyEvent<TicketEvent>('ticket', (event) => {
    if (event?.action !== 'update' || event.ticket?.id !== ticketId) return;
    if (event.changed?.includes(detail)) void queryClient.invalidateQueries({ queryKey });
  });
};

// Notes written in the background (a bot's, the co-pilot's summary) come with an update of the
// ticket that says so (`changed: ['notes']`).
export const useTicketNotes = (ticketId: number, contactId: number) => {
  useRereadOnChange(ticketId, 'notes', contactDrawerKeys.notes(ticketId));
  return useQuery({
    queryKey: contactDrawerKeys.notes(ticketId),
    queryFn: () => fetchTicketNotes(ticketId, contactId),
  });
};

export const useAddTicketNote = (ticketId: number, contactId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => addTicketNote({ note, ticketId, contactId }),
    onSuccess: (note) =>
      queryClient.setQueryData<TicketNote[]>(contactDrawerKeys.notes(ticketId), (notes) => [
        ...(notes ?? []),
        note,
      ]),
  });
};

// Issue 40: the model's summary of the conversation, written as a note ("Resumen IA") and shown in
// the notes at once. Failures toast through the query client with the translated error code.
export const useSummariseTicket = (ticketId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(ticketsContract.summariseTicket, { params: { id: ticketId } }),
    onSuccess: (note) =>
      queryClient.setQueryData<TicketNote[]>(contactDrawerKeys.notes(ticketId), (notes) =>
        notes ? [...notes, note] : notes,
      ),
  });
};

export const useDeleteTicketNote = (ticketId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteTicketNote(id),
    onSuccess: (_data, id) =>
      queryClient.setQueryData<TicketNote[]>(contactDrawerKeys.notes(ticketId), (notes) =>
        notes?.filter((note) => note.id !== id),
      ),
  });
};

export const useSyncTicketTags = (ticketId: number) => {
  const queryClient = useQueryClient();
  const viewer = useTicketViewer();
  return useMutation({
    // The whole tags (not only ids), so the field can show the change before the answer.
    mutationFn: (tags: TicketView['tags']) => syncTicketTags(ticketId, tags),
    onSuccess: (ticket) =>
      applyTicketEventToCache(queryClient, { action: 'update', ticket }, viewer),
  });
};
