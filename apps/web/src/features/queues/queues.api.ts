import {
  queueOptionsContract,
  queuesContract,
  type QueueInput,
  type QueueOptionInput,
  type QueueOptionView,
  type QueueUpdateInput,
  type QueueView,
} from '@atendi/shared';
import { call } from '../../api/http-client';

// The queues page's changes; what it reads (GET /queue, /queue-options) is api/queries/queues.ts.

export type Queue = QueueView;
export type QueueOption = QueueOptionView;

export const createQueue = (input: QueueInput) => call(queuesContract.createQueue, { body: input });
export const updateQueue = (id: number, input: QueueUpdateInput) =>
  call(queuesContract.updateQueue, { params: { id }, body: input });
export const deleteQueue = (id: number) => call(queuesContract.deleteQueue, { params: { id } });

export const createQueueOption = (input: QueueOptionInput) =>
  call(queueOptionsContract.createQueueOption, { body: input });
export const updateQueueOption = (
  id: number,
  input: Partial<Pick<QueueOption, 'title' | 'message' | 'option'>>,
) => call(queueOptionsContract.updateQueueOption, { params: { id }, body: input });
export const deleteQueueOption = (id: number) =>
  call(queueOptionsContract.deleteQueueOption, { params: { id } });
