import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  quickMessagesContract,
  type QuickMessageEvent,
  type QuickMessagesPage,
  type QuickMessageUpdateInput,
  type QuickMessageView,
  type RouteInput,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { removeFromPages, updatePagedLists, upsertIntoPages } from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';

type QuickMessagesData = InfiniteData<QuickMessagesPage, number>;

const quickMessagesKeys = {
  lists: ['quick-messages', 'page'] as const,
  list: (search: string) => ['quick-messages', 'page', search] as const,
};

// What the dialog sends: the scope only when the user may choose it (the API defaults the rest).
type QuickMessageCreate = RouteInput<typeof quickMessagesContract.createQuickMessage>['body'];

const fetchQuickMessagesPage = (searchParam: string, pageNumber: number) =>
  call(quickMessagesContract.listQuickMessages, { query: { searchParam, pageNumber } });
export const createQuickMessage = (input: QuickMessageCreate) =>
  call(quickMessagesContract.createQuickMessage, { body: input });
export const updateQuickMessage = (id: number, input: QuickMessageUpdateInput) =>
  call(quickMessagesContract.updateQuickMessage, { params: { id }, body: input });
export const deleteQuickMessage = (id: number) =>
  call(quickMessagesContract.deleteQuickMessage, { params: { id } });

// SPEC §7: media-upload takes the form fields typeArch and file.
export const uploadQuickMessageMedia = (id: number, file: File) => {
  const body = new FormData();
  body.append('typeArch', 'quickMessage');
  body.append('file', file);
  return call(quickMessagesContract.uploadQuickMessageMedia, { params: { id }, body });
};
export const removeQuickMessageMedia = (id: number) =>
  call(quickMessagesContract.removeQuickMessageMedia, { params: { id } });

export const quickMessagesList: PagedSource<'records', QuickMessagesPage> = {
  queryKey: quickMessagesKeys.list,
  rowsKey: 'records',
  fetchPage: fetchQuickMessagesPage,
};

// The API searches shortcode and message, case-insensitively.
const matchesSearch = (record: QuickMessageView, search: string) => {
  const term = search.trim().toLowerCase();
  return (
    !term ||
    record.shortcode.toLowerCase().includes(term) ||
    record.message.toLowerCase().includes(term)
  );
};

// SPEC §7 company-{id}-quickemessage: create and update insert or replace, delete removes.
const applyQuickMessageEvent = (
  data: QuickMessagesData | undefined,
  event: QuickMessageEvent,
  search: string,
): QuickMessagesData | undefined => {
  if (event.action === 'delete') return removeFromPages(data, 'records', event.id);
  const { record } = event;
  // An edit can take an answer out of the current search.
  if (!matchesSearch(record, search)) return removeFromPages(data, 'records', record.id);
  return upsertIntoPages(data, 'records', record, true);
};

export const applyQuickMessageEventToCache = (
  queryClient: QueryClient,
  event: QuickMessageEvent,
) => {
  updatePagedLists<QuickMessagesData>(queryClient, quickMessagesKeys.lists, (data, search) =>
    applyQuickMessageEvent(data, event, search),
  );
};

export const useQuickMessageLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<QuickMessageEvent>('quickemessage', (event) => {
    if (event?.action === 'delete' ? typeof event.id === 'number' : event?.record) {
      applyQuickMessageEventToCache(queryClient, event);
    }
  });
};
