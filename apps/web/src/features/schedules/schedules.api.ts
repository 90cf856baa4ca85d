import { useEffect } from 'react';
import {
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import type {
  ContactView,
  ScheduleEvent,
  ScheduleInput,
  SchedulesPage,
  ScheduleUpdateInput,
  ScheduleView,
} from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';

// SPEC §2 Schedules and §7 "Quick messages and schedules".

export type ContactChoice = Pick<ContactView, 'id' | 'name' | 'number'>;
type ContactsPage = { contacts: ContactChoice[]; hasMore: boolean; count: number };

export const schedulePageKeys = {
  all: ['schedules'] as const,
  list: (search: string) => ['schedules', 'list', search] as const,
  contacts: (term: string) => ['schedules', 'contacts', term] as const,
  contact: (id: number) => ['schedules', 'contact', id] as const,
};

export const fetchSchedules = (searchParam: string, pageNumber: number) =>
  api.get<SchedulesPage>('/schedules', { query: { searchParam, pageNumber } });

export const createSchedule = (input: ScheduleInput) => api.post<ScheduleView>('/schedules', input);

export const updateSchedule = (id: number, input: ScheduleUpdateInput) =>
  api.put<ScheduleView>(`/schedules/${id}`, input);

export const deleteSchedule = (id: number) => api.delete<void>(`/schedules/${id}`);

const searchContacts = (searchParam: string) =>
  api.get<ContactsPage>('/contacts', { query: { searchParam, pageNumber: 1 } });

const fetchContact = (id: number) => api.get<ContactChoice>(`/contacts/${id}`);

// The calendar shows every schedule the search matches, so the pages are loaded one after another
// until the API says there are no more.
export const useScheduleList = (search: string) => {
  const query = useInfiniteQuery({
    queryKey: schedulePageKeys.list(search),
    queryFn: ({ pageParam }) => fetchSchedules(search, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages) => (lastPage.hasMore ? pages.length + 1 : undefined),
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isError } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  return query;
};

export const schedulesOf = (data: InfiniteData<SchedulesPage> | undefined) =>
  data?.pages.flatMap((page) => page.schedules) ?? [];

export const countOf = (data: InfiniteData<SchedulesPage> | undefined) =>
  data?.pages[0]?.count ?? 0;

export const useContactSearch = (term: string) =>
  useQuery({
    queryKey: schedulePageKeys.contacts(term),
    queryFn: () => searchContacts(term),
    enabled: term !== '',
    staleTime: 0,
  });

// The contact named by ?contactId=, to preselect it in the add dialog.
export const useContact = (id: number | null) =>
  useQuery({
    queryKey: schedulePageKeys.contact(id ?? 0),
    queryFn: () => fetchContact(id!),
    enabled: id !== null,
  });

// Live `company-{id}-schedule` events: the lists are loaded again, so each search keeps its own
// matches and the count stays the server's.
export const useSchedulesLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<ScheduleEvent>('schedule', () => {
    void queryClient.invalidateQueries({ queryKey: ['schedules', 'list'] });
  });
};
