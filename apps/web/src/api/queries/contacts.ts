import { useQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  contactsContract,
  type ContactEvent,
  type ContactListPage,
  type ContactView,
} from '@atendi/shared';
import { removeFromPages, updatePagedLists, upsertIntoPages } from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';
import { call } from '../http-client';

// The contacts resource (GET /contacts, /contacts/{id}): the contacts page's searchable list, the
// pickers' search (new ticket, schedules) and one contact (the page, the chat's drawer, a schedule
// link), each under one cache key for the whole app.

type ContactsData = InfiniteData<ContactListPage, number>;

export const contactKeys = {
  lists: ['contacts', 'page'] as const,
  list: (search: string) => ['contacts', 'page', search] as const,
  detail: (id: number) => ['contacts', 'detail', id] as const,
  search: (term: string) => ['contacts', 'search', term] as const,
};

const fetchContactsPage = (searchParam: string, pageNumber: number) =>
  call(contactsContract.listContacts, { query: { searchParam, pageNumber } });
export const fetchContact = (id: number) => call(contactsContract.getContact, { params: { id } });

export const contactsList: PagedSource<'contacts', ContactListPage> = {
  queryKey: contactKeys.list,
  rowsKey: 'contacts',
  fetchPage: fetchContactsPage,
};

export const useContact = (id: number, { enabled = true } = {}) =>
  useQuery({ queryKey: contactKeys.detail(id), queryFn: () => fetchContact(id), enabled });

// A picker's search: the first page of GET /contacts for a term ('' asks for nothing).
export const useContactSearch = (term: string) =>
  useQuery({
    queryKey: contactKeys.search(term),
    queryFn: () => fetchContactsPage(term, 1),
    enabled: term !== '',
    staleTime: 0,
  });

const matchesSearch = (contact: ContactView, search: string) => {
  const term = search.trim().toLowerCase();
  const digits = term.replace(/\D/g, '');
  return (
    contact.name.toLowerCase().includes(term) ||
    contact.number.includes(term) ||
    (digits !== '' && contact.number.includes(digits))
  );
};

// SPEC §4: create and update insert or replace, delete removes (company-{id}-contact).
export const applyContactEventToCache = (queryClient: QueryClient, event: ContactEvent) => {
  updatePagedLists<ContactsData>(queryClient, contactKeys.lists, (data, search) => {
    if (event.action === 'delete') return removeFromPages(data, 'contacts', event.contactId);
    const { extraInfo: _extraInfo, ...contact } = event.contact;
    return upsertIntoPages(data, 'contacts', contact, matchesSearch(contact, search));
  });
  if (event.action === 'delete')
    queryClient.removeQueries({ queryKey: contactKeys.detail(event.contactId) });
  else queryClient.setQueryData(contactKeys.detail(event.contact.id), event.contact);
};
