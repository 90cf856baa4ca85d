import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { presences, usersContract, type Presence, type PresenceView } from '@atendi/shared';
import { setLiveData } from '../lib/paged-cache';
import { call } from './http-client';
import { useCompanyEvent } from './socket';

// company-{id}-presence: someone's presence changed (every user of the company hears it).
type PresenceEvent = { action: 'update' } & PresenceView;

const isPresence = (value: unknown): value is Presence =>
  (presences as readonly unknown[]).includes(value);

const isPresenceEvent = (payload: unknown): payload is PresenceEvent => {
  const event = payload as Partial<PresenceEvent> | null | undefined;
  return (
    event?.action === 'update' &&
    typeof event.userId === 'number' &&
    isPresence(event.presence) &&
    isPresence(event.availability)
  );
};

// PUT /presence: the signed-in user's own choice (online = available); answers what it made of it.
export const setAvailability = (availability: Presence) =>
  call(usersContract.setPresence, { body: { availability } });

type PresenceRow = { id: number; presence: Presence; online: boolean; availability?: Presence };

// A user row (GET /users, /users/{id}, /users/list) with the presence an event brought; `online` is
// the old field, presence other than offline. Rows of other users are returned as they were.
export const withPresence = <R extends PresenceRow>(row: R, change: PresenceView): R =>
  row.id !== change.userId
    ? row
    : {
        ...row,
        presence: change.presence,
        online: change.presence !== 'offline',
        ...('availability' in row ? { availability: change.availability } : {}),
      };

// Writes a presence change into every cached query under `queryKey` (each search of a list) that
// holds data; applied again to the answer of a fetch in flight (setLiveData).
export const patchCachedQueries = <D>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  patch: (data: D) => D,
) =>
  queryClient
    .getQueryCache()
    .findAll({ queryKey })
    .forEach((query) =>
      setLiveData<D>(queryClient, query.queryKey, (data) =>
        data === undefined ? data : patch(data),
      ),
    );

// Runs the handler for each well-formed company-{id}-presence event while mounted.
export const usePresenceEvents = (handler: (change: PresenceEvent) => void) => {
  useCompanyEvent<unknown>('presence', (payload) => {
    if (isPresenceEvent(payload)) handler(payload);
  });
};
