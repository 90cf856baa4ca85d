import { z } from 'zod';
import { defineRoutes } from '../contract';
import { queueOptionViewSchema, queueViewSchema } from '../queues';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import {
  idParam,
  queueOptionSchema,
  queueOptionsQuery,
  queueOptionUpdateSchema,
  queueSchema,
  queueUpdateSchema,
} from '../schemas';

// SPEC §7 Queues: every profile reads them (transfer, filters); only admins change them.
export const queuesContract = defineRoutes('queues', {
  listQueues: {
    method: 'GET',
    path: '/queue',
    summary: "List the company's queues, by order then name",
    response: okResponse(z.array(queueViewSchema)),
  },
  getQueue: {
    method: 'GET',
    path: '/queue/:id',
    summary: 'Read one queue',
    params: idParam,
    response: okResponse(queueViewSchema),
  },
  createQueue: {
    method: 'POST',
    path: '/queue',
    summary: 'Create a queue',
    body: queueSchema,
    response: createdResponse(queueViewSchema),
  },
  updateQueue: {
    method: 'PUT',
    path: '/queue/:id',
    summary: 'Change a queue',
    params: idParam,
    body: queueUpdateSchema,
    response: okResponse(queueViewSchema),
  },
  deleteQueue: {
    method: 'DELETE',
    path: '/queue/:id',
    summary: 'Delete a queue',
    params: idParam,
    response: noContentResponse,
  },
});

// SPEC §7 Queue options: the entries of a queue's chatbot menu.
export const queueOptionsContract = defineRoutes('queue-options', {
  listQueueOptions: {
    method: 'GET',
    path: '/queue-options',
    summary: "List one level of a queue's chatbot menu (parentId -1: the top level)",
    query: queueOptionsQuery,
    response: okResponse(z.array(queueOptionViewSchema)),
  },
  getQueueOption: {
    method: 'GET',
    path: '/queue-options/:id',
    summary: 'Read one chatbot menu entry',
    params: idParam,
    response: okResponse(queueOptionViewSchema),
  },
  createQueueOption: {
    method: 'POST',
    path: '/queue-options',
    summary: "Add an entry to a queue's chatbot menu",
    body: queueOptionSchema,
    response: createdResponse(queueOptionViewSchema),
  },
  updateQueueOption: {
    method: 'PUT',
    path: '/queue-options/:id',
    summary: 'Change a chatbot menu entry',
    params: idParam,
    body: queueOptionUpdateSchema,
    response: okResponse(queueOptionViewSchema),
  },
  deleteQueueOption: {
    method: 'DELETE',
    path: '/queue-options/:id',
    summary: 'Delete a chatbot menu entry and the entries below it',
    params: idParam,
    response: noContentResponse,
  },
});
