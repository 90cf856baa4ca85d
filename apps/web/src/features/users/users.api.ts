import {
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  usersContract,
  type PresenceView,
  type UserCreateInput,
  type UserUpdateInput,
  type UserView,
  type UsersPage,
} from '@atendi/shared';
import { call } from '../../api/http-client';
import { patchCachedQueries, usePresenceEvents, withPresence } from '../../api/presence';
import { useCompanyEvent } from '../../api/socket';
import {
  findInPages,
  removeFromPages,
  updatePagedLists,
  upsertIntoPages,
} from '../../lib/paged-cache';
import type { PagedSource } from '../../lib/use-paged-list';

export type User = UserView;

// company-{id}-user payloads (SPEC §4).
type UserEvent = { action: 'create' | 'update'; user: User } | { action: 'delete'; userId: number };

type UsersData = InfiniteData<UsersPage, number>;

const usersKeys = {
  lists: ['users', 'list'] as const,
  list: (search: string) => ['users', 'list', search] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
};

const fetchUsersPage = (searchParam: string, pageNumber: number) =>
  call(usersContract.listUsers, { query: { searchParam, pageNumber } });
const fetchUser = (id: number) => call(usersContract.getUser, { params: { id } });
export const createUser = (input: UserCreateInput) =>
  call(usersContract.createUser, { body: input });
export const updateUser = (id: number, input: UserUpdateInput) =>
  call(usersContract.updateUser, { params: { id }, body: input });
export const deleteUser = (id: number) => call(usersContract.deleteUser, { params: { id } });
// Issue 37: signs the user out everywhere (their tokens and sockets, on every node).
export const endUserSessions = (id: number) =>
  call(usersContract.endUserSessions, { params: { id } });

export const usersList: PagedSource<'users', UsersPage> = {
  queryKey: usersKeys.list,
  rowsKey: 'users',
  fetchPage: fetchUsersPage,
};

export const useUser = (id: number) =>
  useQuery({ queryKey: usersKeys.detail(id), queryFn: () => fetchUser(id), staleTime: 0 });

const matchesSearch = (user: User, search: string) => {
  const term = search.trim().toLowerCase();
  return !term || user.name.toLowerCase().includes(term) || user.email.toLowerCase().includes(term);
};

// SPEC §4: create and update insert or replace, delete removes.
const applyUserEvent = (
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

// company-{id}-presence: the listed rows and the loaded users take the new presence in place.
const applyPresenceToCache = (queryClient: QueryClient, change: PresenceView) => {
  patchCachedQueries<UsersData>(queryClient, usersKeys.lists, (data) =>
    findInPages(data, 'users', change.userId)
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            users: page.users.map((user) => withPresence(user, change)),
          })),
        }
      : data,
  );
  queryClient.setQueryData<User>(usersKeys.detail(change.userId), (user) =>
    user ? withPresence(user, change) : user,
  );
};

export const useUserLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<UserEvent>('user', (event) => {
    if (event?.action === 'delete' || event?.user) applyUserEventToCache(queryClient, event);
  });
  usePresenceEvents((change) => applyPresenceToCache(queryClient, change));
};
