import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  QueueInput,
  QueueOptionInput,
  QueueOptionView,
  QueueUpdateInput,
  QueueView,
} from '@atendi/shared';
import { api } from '../../api/http-client';
import { useCompanyEvent } from '../../api/socket';
import { setLiveData } from '../../lib/paged-cache';

export type Queue = QueueView;
export type QueueOption = QueueOptionView;

// company-{id}-queue payloads (SPEC §4).
export type QueueEvent =
  { action: 'create' | 'update'; queue: Queue } | { action: 'delete'; queueId: number };

// SPEC §7: GET /queue-options takes parentId -1 for the top level.
export const TOP_LEVEL = -1;

export const queuesKeys = {
  list: ['queues', 'list'] as const,
  options: (queueId: number) => ['queue-options', queueId] as const,
  optionLevel: (queueId: number, parentId: number) => ['queue-options', queueId, parentId] as const,
};

export const fetchQueues = () => api.get<Queue[]>('/queue');
export const createQueue = (input: QueueInput) => api.post<Queue>('/queue', input);
export const updateQueue = (id: number, input: QueueUpdateInput) =>
  api.put<Queue>(`/queue/${id}`, input);
export const deleteQueue = (id: number) => api.delete(`/queue/${id}`);

export const fetchQueueOptions = (queueId: number, parentId: number) =>
  api.get<QueueOption[]>('/queue-options', { query: { queueId, parentId } });
export const createQueueOption = (input: QueueOptionInput) =>
  api.post<QueueOption>('/queue-options', input);
export const updateQueueOption = (
  id: number,
  input: Partial<Pick<QueueOption, 'title' | 'message' | 'option'>>,
) => api.put<QueueOption>(`/queue-options/${id}`, input);
export const deleteQueueOption = (id: number) => api.delete(`/queue-options/${id}`);

export const useQueues = () => useQuery({ queryKey: queuesKeys.list, queryFn: fetchQueues });

export const useQueueOptions = (queueId: number, parentId: number) =>
  useQuery({
    queryKey: queuesKeys.optionLevel(queueId, parentId),
    queryFn: () => fetchQueueOptions(queueId, parentId),
  });

// The API's order: orderQueue first (queues without one last), then name.
const byOrderThenName = (a: Queue, b: Queue) => {
  const orderA = a.orderQueue ?? Number.POSITIVE_INFINITY;
  const orderB = b.orderQueue ?? Number.POSITIVE_INFINITY;
  if (orderA !== orderB) return orderA < orderB ? -1 : 1;
  return a.name.localeCompare(b.name);
};

// SPEC §4: create and update insert or replace, delete removes.
export const applyQueueEvent = (list: Queue[] | undefined, event: QueueEvent) => {
  if (!list) return list;
  if (event.action === 'delete') return list.filter((queue) => queue.id !== event.queueId);
  const others = list.filter((queue) => queue.id !== event.queue.id);
  return [...others, event.queue].sort(byOrderThenName);
};

export const applyQueueEventToCache = (queryClient: QueryClient, event: QueueEvent) => {
  setLiveData<Queue[]>(queryClient, queuesKeys.list, (list) => applyQueueEvent(list, event));
  if (event.action === 'delete') {
    queryClient.removeQueries({ queryKey: queuesKeys.options(event.queueId) });
  }
};

export const useQueueLiveUpdates = () => {
  const queryClient = useQueryClient();
  useCompanyEvent<QueueEvent>('queue', (event) => {
    if (event?.action === 'delete' || event?.queue) applyQueueEventToCache(queryClient, event);
  });
};
