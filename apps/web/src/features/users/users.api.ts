import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { Profile, UserCreateInput, UserUpdateInput } from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';

export type QueueRef = { id: number; name: string; color: string };

export type AllTicket = 'enabled' | 'desabled';

export type User = {
  id: number;
  companyId: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  allTicket: AllTicket;
  whatsappId: number | null;
  online: boolean;
  queues: QueueRef[];
  queueIds: number[];
  createdAt: string;
  updatedAt: string;
};

export type UsersPage = { users: User[]; count: number; hasMore: boolean };

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

export const usersListQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: usersKeys.list(search),
    queryFn: ({ pageParam }) => fetchUsersPage(search, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });

export const useUsersList = (search: string) => {
  const query = useInfiniteQuery(usersListQuery(search));
  // Pages are offsets: a live insert can push a row onto the next page, so show each user once.
  const byId = new Map<number, User>();
  query.data?.pages.forEach((page) => page.users.forEach((user) => byId.set(user.id, user)));
  return { ...query, users: [...byId.values()] };
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
): UsersData | undefined => {
  if (!data) return data;
  if (event.action === 'delete') {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        users: page.users.filter((user) => user.id !== event.userId),
      })),
    };
  }
  const { user } = event;
  const isListed = data.pages.some((page) => page.users.some((row) => row.id === user.id));
  if (isListed) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        users: page.users.map((row) => (row.id === user.id ? user : row)),
      })),
    };
  }
  if (!matchesSearch(user, search)) return data;
  const [first, ...rest] = data.pages;
  return { ...data, pages: [{ ...first, users: [user, ...first.users] }, ...rest] };
};

export const applyUserEventToCache = (queryClient: QueryClient, event: UserEvent) => {
  queryClient
    .getQueryCache()
    .findAll({ queryKey: usersKeys.lists })
    .forEach(({ queryKey }) => {
      const search = String(queryKey[2] ?? '');
      queryClient.setQueryData<UsersData>(queryKey, (data) => applyUserEvent(data, event, search));
    });
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
