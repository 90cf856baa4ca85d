import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  tagsContract,
  type TagEvent,
  type TagsPage,
  type TagUpdateInput,
  type TagView,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import {
  findInPages,
  removeFromPages,
  updatePagedLists,
  upsertIntoPages,
} from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';

type TagsData = InfiniteData<TagsPage, number>;

const tagsKeys = {
  lists: ['tags', 'page'] as const,
  list: (search: string) => ['tags', 'page', search] as const,
};

const fetchTagsPage = (searchParam: string, pageNumber: number) =>
  call(tagsContract.listTags, { query: { searchParam, pageNumber } });
// POST takes the same body as PUT; the API fills in a colour or flag left out.
export const createTag = (input: TagUpdateInput) => call(tagsContract.createTag, { body: input });
export const updateTag = (id: number, input: TagUpdateInput) =>
  call(tagsContract.updateTag, { params: { id }, body: input });
export const deleteTag = (id: number) => call(tagsContract.deleteTag, { params: { id } });

export const tagsList: PagedSource<'tags', TagsPage> = {
  queryKey: tagsKeys.list,
  rowsKey: 'tags',
  fetchPage: fetchTagsPage,
};

const matchesSearch = (name: string, search: string) =>
  name.toLowerCase().includes(search.trim().toLowerCase());

// SPEC §4: create inserts, update replaces (keeping the ticket count the event does not carry),
// delete removes.
const applyTagEvent = (
  data: TagsData | undefined,
  event: TagEvent,
  search: string,
): TagsData | undefined => {
  if (event.action === 'delete') return removeFromPages(data, 'tags', event.tagId);
  const { tag } = event;
  const listed = findInPages(data, 'tags', tag.id);
  const row: TagView = { userId: null, ticketsCount: 0, ...listed, ...tag };
  return upsertIntoPages(data, 'tags', row, matchesSearch(tag.name, search));
};

export const applyTagEventToCache = (queryClient: QueryClient, event: TagEvent) => {
  updatePagedLists<TagsData>(queryClient, tagsKeys.lists, (data, search) =>
    applyTagEvent(data, event, search),
  );
};

// company-{id}-tag: { action, tag } or { action: 'delete', tagId }.
export const useTagLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<TagEvent>('tag', (event) => {
    if ((event?.action === 'delete' && event.tagId) || (event && 'tag' in event && event.tag))
      applyTagEventToCache(queryClient, event);
  });
};
