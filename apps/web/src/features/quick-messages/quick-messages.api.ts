import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type {
  QuickMessageEvent,
  QuickMessageInput,
  QuickMessagesPage,
  QuickMessageUpdateInput,
  QuickMessageView,
} from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { removeFromPages, updatePagedLists, upsertIntoPages } from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';

type QuickMessagesData = InfiniteData<QuickMessagesPage, number>;

export const quickMessagesKeys = {
  lists: ['quick-messages', 'page'] as const,
  list: (search: string) => ['quick-messages', 'page', search] as const,
};

export const fetchQuickMessagesPage = (searchParam: string, pageNumber: number) =>
  api.get<QuickMessagesPage>('/quick-messages', { query: { searchParam, pageNumber } });
export const createQuickMessage = (input: Partial<QuickMessageInput>) =>
  api.post<QuickMessageView>('/quick-messages', input);
export const updateQuickMessage = (id: number, input: QuickMessageUpdateInput) =>
  api.put<QuickMessageView>(`/quick-messages/${id}`, input);
export const deleteQuickMessage = (id: number) => api.delete(`/quick-messages/${id}`);

// SPEC §7: media-upload takes the form fields typeArch and file.
export const uploadQuickMessageMedia = (id: number, file: File) => {
  const body = new FormData();
  body.append('typeArch', 'quickMessage');
  body.append('file', file);
  return api.post<QuickMessageView>(`/quick-messages/${id}/media-upload`, body);
};
export const removeQuickMessageMedia = (id: number) =>
  api.delete<QuickMessageView>(`/quick-messages/${id}/media-upload`);

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
export const applyQuickMessageEvent = (
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
