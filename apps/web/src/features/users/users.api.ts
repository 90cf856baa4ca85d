import {
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { UserCreateInput, UserUpdateInput, UserView, UsersPage } from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { removeFromPages, updatePagedLists, upsertIntoPages } from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';

export type QueueRef = { id: number; name: string; color: string };

export type AllTicket = UserView['allTicket'];

export type User = UserView;

export type { UsersPage };

// company-{id}-user payloads (SPEC §4).
export type UserEvent =
  { action: 'create' | 'update'; user: User } | { action: 'delete'; userId: number };

type UsersData = InfiniteData<UsersPage, number>;

export const usersKeys = {
  lists: ['users', 'list'] as const,
  list: (search: string) => ['users', 'list', search] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
  queueChoices: ['users', 'queue-choices'] as const,
  connectionChoices: ['users', 'connection-choices'] as const,
};

export const fetchUsersPage = (searchParam: string, pageNumber: number) =>
  api.get<UsersPage>('/users', { query: { searchParam, pageNumber } });
export const fetchUser = (id: number) => api.get<User>(`/users/${id}`);
export const createUser = (input: UserCreateInput) => api.post<User>('/users', input);
export const updateUser = (id: number, input: UserUpdateInput) =>
  api.put<User>(`/users/${id}`, input);
export const deleteUser = (id: number) => api.delete(`/users/${id}`);
// The queue picker needs only id, name and colour of GET /queue's answer.
export const fetchQueueChoices = () => api.get<QueueRef[]>('/queue');
export type ConnectionChoice = { id: number; name: string };
export const fetchConnectionChoices = () => api.get<ConnectionChoice[]>('/whatsapp?session=0');

export const usersList: PagedSource<'users', UsersPage> = {
  queryKey: usersKeys.list,
  rowsKey: 'users',
  fetchPage: fetchUsersPage,
};

export const useUser = (id: number) =>
  useQuery({ queryKey: usersKeys.detail(id), queryFn: () => fetchUser(id), staleTime: 0 });

export const useQueueChoices = (enabled: boolean) =>
  useQuery({
    queryKey: usersKeys.queueChoices,
    queryFn: fetchQueueChoices,
    enabled,
    staleTime: 0,
  });

export const useConnectionChoices = (enabled: boolean) =>
  useQuery({
    queryKey: usersKeys.connectionChoices,
    queryFn: fetchConnectionChoices,
    enabled,
    staleTime: 0,
  });

const matchesSearch = (user: User, search: string) => {
  const term = search.trim().toLowerCase();
  return !term || user.name.toLowerCase().includes(term) || user.email.toLowerCase().includes(term);
};

// SPEC §4: create and update insert or replace, delete removes.
export const applyUserEvent = (
  data: UsersData | undefined,
  event: UserEvent,
  search: string,
): UsersData | undefined =>
  event.action === 'delete'
    ? removeFromPages(data, 'users', event.userId)
    : upsertIntoPages(data, 'users', event.user, matchesSearch(event.user, search));

export const applyUserEventToCache = (queryClient: QueryClient, event: UserEvent) => {
  updatePagedLists<UsersData>(queryClient, usersKeys.lists, (data, search) =>
    applyUserEvent(data, event, search),
  );
  if (event.action === 'delete') {
    queryClient.removeQueries({ queryKey: usersKeys.detail(event.userId) });
  } else {
    queryClient.setQueryData(usersKeys.detail(event.user.id), event.user);
  }
};

export const useUserLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<UserEvent>('user', (event) => {
    if (event?.action === 'delete' || event?.user) applyUserEventToCache(queryClient, event);
  });
};
