import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  QuickMessageEvent,
  QuickMessageInput,
  QuickMessagesPage,
  QuickMessageUpdateInput,
  QuickMessageView,
} from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';

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

export const quickMessagesListQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: quickMessagesKeys.list(search),
    queryFn: ({ pageParam }) => fetchQuickMessagesPage(search, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });

export const useQuickMessagesList = (search: string) => {
  const query = useInfiniteQuery(quickMessagesListQuery(search));
  // Pages are offsets: a live insert can push a row onto the next page, so show each answer once.
  const byId = new Map<number, QuickMessageView>();
  query.data?.pages.forEach((page) => page.records.forEach((row) => byId.set(row.id, row)));
  return { ...query, records: [...byId.values()] };
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
  if (!data) return data;
  const without = (id: number) => ({
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      records: page.records.filter((row) => row.id !== id),
    })),
  });
  if (event.action === 'delete') return without(event.id);
  const { record } = event;
  // An edit can take an answer out of the current search.
  if (!matchesSearch(record, search)) return without(record.id);
  const isListed = data.pages.some((page) => page.records.some((row) => row.id === record.id));
  if (isListed) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        records: page.records.map((row) => (row.id === record.id ? record : row)),
      })),
    };
  }
  const [first, ...rest] = data.pages;
  return { ...data, pages: [{ ...first, records: [record, ...first.records] }, ...rest] };
};

export const applyQuickMessageEventToCache = (
  queryClient: QueryClient,
  event: QuickMessageEvent,
) => {
  queryClient
    .getQueryCache()
    .findAll({ queryKey: quickMessagesKeys.lists })
    .forEach(({ queryKey }) => {
      const search = String(queryKey[2] ?? '');
      queryClient.setQueryData<QuickMessagesData>(queryKey, (data) =>
        applyQuickMessageEvent(data, event, search),
      );
    });
};

export const useQuickMessageLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<QuickMessageEvent>('quickemessage', (event) => {
    if (event?.action === 'delete' ? typeof event.id === 'number' : event?.record) {
      applyQuickMessageEventToCache(queryClient, event);
    }
  });
};
