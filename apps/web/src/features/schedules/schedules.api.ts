import { useEffect } from 'react';
import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  schedulesContract,
  type ContactView,
  type ScheduleEvent,
  type ScheduleInput,
  type SchedulesPage,
  type ScheduleUpdateInput,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { useContact } from '../../api/queries/contacts';
import { useCompanyEvent } from '../../api/socket';

// SPEC §2 Schedules and §7 "Quick messages and schedules".

export type ContactChoice = Pick<ContactView, 'id' | 'name' | 'number'>;

const schedulePageKeys = {
  all: ['schedules'] as const,
  list: (search: string) => ['schedules', 'list', search] as const,
};

const fetchSchedules = (searchParam: string, pageNumber: number) =>
  call(schedulesContract.listSchedules, { query: { searchParam, pageNumber } });

export const createSchedule = (input: ScheduleInput) =>
  call(schedulesContract.createSchedule, { body: input });

export const updateSchedule = (id: number, input: ScheduleUpdateInput) =>
  call(schedulesContract.updateSchedule, { params: { id }, body: input });

export const deleteSchedule = (id: number) =>
  call(schedulesContract.deleteSchedule, { params: { id } });

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

// Contacts are searched and read through api/queries/contacts.ts.
export { useContactSearch } from '../../api/queries/contacts';

// The contact named by ?contactId=, to preselect it in the add dialog.
export const useLinkedContact = (id: number | null) =>
  useContact(id ?? 0, { enabled: id !== null });

// Live `company-{id}-schedule` events: the lists are loaded again, so each search keeps its own
// matches and the count stays the server's.
export const useSchedulesLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<ScheduleEvent>('schedule', () => {
    void queryClient.invalidateQueries({ queryKey: ['schedules', 'list'] });
  });
};
