import {
  announcementsContract,
  type AnnouncementInput,
  type AnnouncementsPage,
  type AnnouncementView,
} from '@atendi/shared';
import {
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { call } from '../../api/http-client';
import type { PagedSource } from '../../lib/use-paged-list';
import { useCompanyEvent } from '../../api/socket';

export type AnnouncementPriority = 1 | 2 | 3;

export type Announcement = AnnouncementView;

type AnnouncementPage = AnnouncementsPage;

export type AnnouncementEvent =
  { action: 'create' | 'update'; record: Announcement } | { action: 'delete'; id: number };

type AnnouncementPages = InfiniteData<AnnouncementPage, number>;

const announcementKeys = {
  all: ['announcements'] as const,
  lists: ['announcements', 'list'] as const,
  list: (search: string) => ['announcements', 'list', search] as const,
  popover: ['announcements', 'popover'] as const,
};

// SPEC §5: only these image types may be attached.
export const ALLOWED_IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg'] as const;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const fetchAnnouncements = (searchParam: string, pageNumber: number) =>
  call(announcementsContract.listAnnouncements, { query: { searchParam, pageNumber } });

export const createAnnouncement = (input: AnnouncementInput) =>
  call(announcementsContract.createAnnouncement, { body: input });

export const updateAnnouncement = (id: number, input: AnnouncementInput) =>
  call(announcementsContract.updateAnnouncement, { params: { id }, body: input });

export const deleteAnnouncement = (id: number) =>
  call(announcementsContract.deleteAnnouncement, { params: { id } });

export const uploadAnnouncementMedia = (id: number, file: File) => {
  const body = new FormData();
  body.append('file', file);
  return call(announcementsContract.uploadAnnouncementMedia, { params: { id }, body });
};

export const removeAnnouncementMedia = (id: number) =>
  call(announcementsContract.removeAnnouncementMedia, { params: { id } });

const newestFirst = (a: Announcement, b: Announcement) =>
  new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime() || b.id - a.id;

// Replaces the record where it is, or puts it among the loaded ones in newest-first order.
const upsertInPages = (data: AnnouncementPages, record: Announcement): AnnouncementPages => {
  const isLoaded = data.pages.some((page) => page.records.some((item) => item.id === record.id));
  if (isLoaded) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        records: page.records.map((item) => (item.id === record.id ? record : item)),
      })),
    };
  }
  const [first, ...rest] = data.pages;
  if (!first) return data;
  return {
    ...data,
    pages: [
      { ...first, records: [record, ...first.records].sort(newestFirst), count: first.count + 1 },
      ...rest,
    ],
  };
};

const removeFromPages = (data: AnnouncementPages, id: number): AnnouncementPages => {
  const isLoaded = data.pages.some((page) => page.records.some((item) => item.id === id));
  if (!isLoaded) return data;
  return {
    ...data,
    pages: data.pages.map((page, index) => ({
      ...page,
      records: page.records.filter((item) => item.id !== id),
      count: index === 0 ? Math.max(0, page.count - 1) : page.count,
    })),
  };
};

const matchesSearch = (record: Announcement, search: string) => {
  const needle = search.trim().toLowerCase();
  return (
    !needle ||
    record.title.toLowerCase().includes(needle) ||
    record.text.toLowerCase().includes(needle)
  );
};

const searchOf = (key: QueryKey) => (typeof key[2] === 'string' ? key[2] : '');

type CacheChange = { upsert: Announcement } | { remove: number };

// Applies one change to every loaded management list, respecting each list's search.
export const changeManagementLists = (queryClient: QueryClient, change: CacheChange) => {
  for (const [key] of queryClient.getQueriesData<AnnouncementPages>({
    queryKey: announcementKeys.lists,
  })) {
    queryClient.setQueryData<AnnouncementPages>(key, (data) => {
      if (!data) return data;
      if ('remove' in change) return removeFromPages(data, change.remove);
      if (!matchesSearch(change.upsert, searchOf(key)))
        return removeFromPages(data, change.upsert.id);
      return upsertInPages(data, change.upsert);
    });
  }
};

// The reader's list: non-super users never keep an inactive announcement.
export const changePopoverList = (
  queryClient: QueryClient,
  change: CacheChange,
  showsInactive: boolean,
) => {
  queryClient.setQueryData<AnnouncementPages>(announcementKeys.popover, (data) => {
    if (!data) return data;
    if ('remove' in change) return removeFromPages(data, change.remove);
    if (!change.upsert.status && !showsInactive) return removeFromPages(data, change.upsert.id);
    return upsertInPages(data, change.upsert);
  });
};

const changeOf = (event: AnnouncementEvent): CacheChange | null => {
  if (event?.action === 'delete' && typeof event.id === 'number') return { remove: event.id };
  if ((event?.action === 'create' || event?.action === 'update') && event.record) {
    return { upsert: event.record };
  }
  return null;
};

const nextPageOf = (lastPage: AnnouncementPage, pages: AnnouncementPage[]) =>
  lastPage.hasMore ? pages.length + 1 : undefined;

// The management page's list (components/paged-table.tsx).
export const announcementsList: PagedSource<'records', AnnouncementPage> = {
  queryKey: announcementKeys.list,
  rowsKey: 'records',
  fetchPage: fetchAnnouncements,
};

// The top bar must not toast on every page when announcements cannot load; the popover says so.
export const usePopoverAnnouncements = () =>
  useInfiniteQuery({
    queryKey: announcementKeys.popover,
    queryFn: ({ pageParam }) => fetchAnnouncements('', pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
    meta: { silent: true },
  });

export const recordsOf = (data: { pages: AnnouncementPage[] } | undefined) =>
  data?.pages.flatMap((page) => page.records) ?? [];

// Live `company-{id}-announcement` events for the management table.
export const useManagementLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<AnnouncementEvent>('announcement', (event) => {
    const change = changeOf(event);
    if (change) changeManagementLists(queryClient, change);
  });
};

export const usePopoverLiveUpdates = (showsInactive: boolean) => {
  const queryClient = useQueryClient();
  useCompanyEvent<AnnouncementEvent>('announcement', (event) => {
    const change = changeOf(event);
    if (change) changePopoverList(queryClient, change, showsInactive);
  });
};
