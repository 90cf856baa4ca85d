import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { TagEvent, TagsPage, TagUpdateInput, TagView } from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';

type TagsData = InfiniteData<TagsPage, number>;

export const tagsKeys = {
  lists: ['tags', 'page'] as const,
  list: (search: string) => ['tags', 'page', search] as const,
};

export const fetchTagsPage = (searchParam: string, pageNumber: number) =>
  api.get<TagsPage>('/tags', { query: { searchParam, pageNumber } });
// POST takes the same body as PUT; the API fills in a colour or flag left out.
export const createTag = (input: TagUpdateInput) => api.post<TagView>('/tags', input);
export const updateTag = (id: number, input: TagUpdateInput) =>
  api.put<TagView>(`/tags/${id}`, input);
export const deleteTag = (id: number) => api.delete(`/tags/${id}`);

export const tagsListQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: tagsKeys.list(search),
    queryFn: ({ pageParam }) => fetchTagsPage(search, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });

export const useTagsList = (search: string) => {
  const query = useInfiniteQuery(tagsListQuery(search));
  // Pages are offsets: a live insert can push a row onto the next page, so show each tag once.
  const byId = new Map<number, TagView>();
  query.data?.pages.forEach((page) => page.tags.forEach((tag) => byId.set(tag.id, tag)));
  return { ...query, tags: [...byId.values()] };
};

const matchesSearch = (name: string, search: string) =>
  name.toLowerCase().includes(search.trim().toLowerCase());

// SPEC §4: create inserts, update replaces (keeping the ticket count the event does not carry),
// delete removes.
export const applyTagEvent = (
  data: TagsData | undefined,
  event: TagEvent,
  search: string,
): TagsData | undefined => {
  if (!data) return data;
  if (event.action === 'delete') {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tags: page.tags.filter((tag) => tag.id !== event.tagId),
      })),
    };
  }
  const { tag } = event;
  const isListed = data.pages.some((page) => page.tags.some((row) => row.id === tag.id));
  if (isListed) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tags: page.tags.map((row) => (row.id === tag.id ? { ...row, ...tag } : row)),
      })),
    };
  }
  if (!matchesSearch(tag.name, search)) return data;
  const added: TagView = { userId: null, ticketsCount: 0, ...tag };
  const [first, ...rest] = data.pages;
  return { ...data, pages: [{ ...first, tags: [added, ...first.tags] }, ...rest] };
};

export const applyTagEventToCache = (queryClient: QueryClient, event: TagEvent) => {
  queryClient
    .getQueryCache()
    .findAll({ queryKey: tagsKeys.lists })
    .forEach(({ queryKey }) => {
      const search = String(queryKey[2] ?? '');
      queryClient.setQueryData<TagsData>(queryKey, (data) => applyTagEvent(data, event, search));
    });
};

// company-{id}-tag: { action, tag } or { action: 'delete', tagId }.
export const useTagLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<TagEvent>('tag', (event) => {
    if ((event?.action === 'delete' && event.tagId) || (event && 'tag' in event && event.tag))
      applyTagEventToCache(queryClient, event);
  });
};
