import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { queueOptionsContract, queuesContract, type QueueView } from '@atendi/shared';
import { setLiveData } from '../../lib/paged-cache';
import { call } from '../http-client';
import { useCompanyEvent } from '../socket';

// The queues resource (GET /queue, /queue-options): one cache key per route for the whole app, kept
// current by the company-{id}-queue events while a screen shows it.

// company-{id}-queue payloads (SPEC §4).
type QueueEvent =
  { action: 'create' | 'update'; queue: QueueView } | { action: 'delete'; queueId: number };

// SPEC §7: GET /queue-options takes parentId -1 for the top level.
export const TOP_LEVEL = -1;

export const queueKeys = {
  list: ['queues', 'list'] as const,
  options: (queueId: number) => ['queue-options', queueId] as const,
  optionLevel: (queueId: number, parentId: number) => ['queue-options', queueId, parentId] as const,
};

const fetchQueues = () => call(queuesContract.listQueues);

const fetchQueueOptions = (queueId: number, parentId: number) =>
  call(queueOptionsContract.listQueueOptions, { query: { queueId, parentId } });

// The API's order: orderQueue first (queues without one last), then name.
const byOrderThenName = (a: QueueView, b: QueueView) => {
  const orderA = a.orderQueue ?? Number.POSITIVE_INFINITY;
  const orderB = b.orderQueue ?? Number.POSITIVE_INFINITY;
  if (orderA !== orderB) return orderA < orderB ? -1 : 1;
  return a.name.localeCompare(b.name);
};

// SPEC §4: create and update insert or replace, delete removes.
const applyQueueEvent = (list: QueueView[] | undefined, event: QueueEvent) => {
  if (!list) return list;
  if (event.action === 'delete') return list.filter((queue) => queue.id !== event.queueId);
  const others = list.filter((queue) => queue.id !== event.queue.id);
  return [...others, event.queue].sort(byOrderThenName);
};

export const applyQueueEventToCache = (queryClient: QueryClient, event: QueueEvent) => {
  setLiveData<QueueView[]>(queryClient, queueKeys.list, (list) => applyQueueEvent(list, event));
  if (event.action === 'delete') {
    queryClient.removeQueries({ queryKey: queueKeys.options(event.queueId) });
  }
};

const useQueueEvents = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<QueueEvent>('queue', (event) => {
    if (event?.action === 'delete' || event?.queue) applyQueueEventToCache(queryClient, event);
  });
};

// GET /queue: read again when a screen that shows it mounts, and kept current by live events while
// it is shown. Silent: the caller shows its own error instead of a toast.
export const useQueues = ({ enabled = true, silent = false } = {}) => {
  useQueueEvents();
  return useQuery({
    queryKey: queueKeys.list,
    queryFn: fetchQueues,
    enabled,
    staleTime: 0,
    meta: { silent },
  });
};

export const useQueueOptions = (queueId: number, parentId: number) =>
  useQuery({
    queryKey: queueKeys.optionLevel(queueId, parentId),
    queryFn: () => fetchQueueOptions(queueId, parentId),
  });
