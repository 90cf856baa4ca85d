import {
  queryOptions,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  contactListsContract,
  type ContactListEvent,
  type ContactListInput,
  type ContactListItemEvent,
  type ContactListItemInput,
  type ContactListItemsPage,
  type ContactListItemUpdateInput,
  type ContactListItemView,
  type ContactListsPage,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { removeFromPages, updatePagedLists, upsertIntoPages } from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';

type ListsData = InfiniteData<ContactListsPage, number>;
type ItemsData = InfiniteData<ContactListItemsPage, number>;

export const contactListsKeys = {
  lists: ['contact-lists', 'page'] as const,
  list: (search: string) => ['contact-lists', 'page', search] as const,
  detail: (id: number) => ['contact-lists', 'detail', id] as const,
};

// One list's items are cached apart from every other list's, so events of another list touch none.
export const contactListItemsKeys = {
  lists: (contactListId: number) => ['contact-list-items', 'page', contactListId] as const,
  list: (contactListId: number, search: string) =>
    ['contact-list-items', 'page', contactListId, search] as const,
};

const fetchContactListsPage = (searchParam: string, pageNumber: number) =>
  call(contactListsContract.listContactLists, { query: { searchParam, pageNumber } });
const fetchContactList = (id: number) =>
  call(contactListsContract.getContactList, { params: { id } });
export const createContactList = (input: ContactListInput) =>
  call(contactListsContract.createContactList, { body: input });
export const updateContactList = (id: number, input: ContactListInput) =>
  call(contactListsContract.updateContactList, { params: { id }, body: input });
export const deleteContactList = (id: number) =>
  call(contactListsContract.deleteContactList, { params: { id } });

const fetchContactListItemsPage = (
  contactListId: number,
  searchParam: string,
  pageNumber: number,
) =>
  call(contactListsContract.listContactListItems, {
    query: { contactListId, searchParam, pageNumber },
  });
export const createContactListItem = (input: ContactListItemInput) =>
  call(contactListsContract.createContactListItem, { body: input });
export const updateContactListItem = (id: number, input: ContactListItemUpdateInput) =>
  call(contactListsContract.updateContactListItem, { params: { id }, body: input });
export const deleteContactListItem = (id: number) =>
  call(contactListsContract.deleteContactListItem, { params: { id } });

export const contactListsList: PagedSource<'records', ContactListsPage> = {
  queryKey: contactListsKeys.list,
  rowsKey: 'records',
  fetchPage: fetchContactListsPage,
};

export const contactListItemsList = (
  contactListId: number,
): PagedSource<'contacts', ContactListItemsPage> => ({
  queryKey: (search) => contactListItemsKeys.list(contactListId, search),
  rowsKey: 'contacts',
  fetchPage: (search, pageNumber) => fetchContactListItemsPage(contactListId, search, pageNumber),
});

// The items page's heading; its failure (a list deleted or never there) is shown by the page.
export const contactListQuery = (id: number) =>
  queryOptions({
    queryKey: contactListsKeys.detail(id),
    queryFn: () => fetchContactList(id),
    meta: { silent: true },
  });

// The API's search: the term inside the name (lists), or inside name, number or email (items).
const contains = (text: string, search: string) =>
  text.toLowerCase().includes(search.trim().toLowerCase());

const itemMatches = (item: ContactListItemView, search: string) =>
  contains(item.name, search) || contains(item.number, search) || contains(item.email, search);

// SPEC §4: create and update insert or replace, delete removes; a rename can take a row out of
// the current search.
const applyContactListEvent = (
  data: ListsData | undefined,
  event: ContactListEvent,
  search: string,
): ListsData | undefined => {
  if (event.action === 'delete') return removeFromPages(data, 'records', event.id);
  const { record } = event;
  if (!contains(record.name, search)) return removeFromPages(data, 'records', record.id);
  return upsertIntoPages(data, 'records', record, true);
};

export const applyContactListEventToCache = (queryClient: QueryClient, event: ContactListEvent) => {
  updatePagedLists<ListsData>(queryClient, contactListsKeys.lists, (data, search) =>
    applyContactListEvent(data, event, search),
  );
  if (event.action === 'delete')
    // An items page open on it asks again and shows that the list is gone.
    void queryClient.invalidateQueries({ queryKey: contactListsKeys.detail(event.id) });
  else queryClient.setQueryData(contactListsKeys.detail(event.record.id), event.record);
};

const applyContactListItemEvent = (
  data: ItemsData | undefined,
  event: ContactListItemEvent,
  search: string,
): ItemsData | undefined => {
  if (event.action === 'delete') return removeFromPages(data, 'contacts', event.id);
  const { record } = event;
  if (!itemMatches(record, search)) return removeFromPages(data, 'contacts', record.id);
  return upsertIntoPages(data, 'contacts', record, true);
};

export const applyContactListItemEventToCache = (
  queryClient: QueryClient,
  event: ContactListItemEvent,
) => {
  const contactListId =
    event.action === 'delete' ? event.contactListId : event.record.contactListId;
  updatePagedLists<ItemsData>(
    queryClient,
    contactListItemsKeys.lists(contactListId),
    (data, search) => applyContactListItemEvent(data, event, search),
  );
};

// company-{id}-ContactList: { action, record } or { action: 'delete', id }. The server tells a
// list's new contactsCount this way too.
export const useContactListLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<ContactListEvent>('ContactList', (event) => {
    if (event?.action === 'delete' ? typeof event.id === 'number' : event?.record)
      applyContactListEventToCache(queryClient, event);
  });
};

// company-{id}-ContactListItem: { action, record } or { action: 'delete', id, contactListId }.
export const useContactListItemLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<ContactListItemEvent>('ContactListItem', (event) => {
    if (
      event?.action === 'delete'
        ? typeof event.id === 'number' && typeof event.contactListId === 'number'
        : event?.record
    )
      applyContactListItemEventToCache(queryClient, event);
  });
};
