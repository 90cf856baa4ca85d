import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  quickMessageSchema,
  quickMessageUpdateSchema,
  quickMessageViewSchema,
  quickMessagesListQuery,
  quickMessagesPageSchema,
  quickMessagesQuery,
} from '../quick-messages';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';

const one = okResponse(quickMessageViewSchema);

// SPEC §7 Quick messages: every profile keeps its own answers; company-wide ones are the admins'.
export const quickMessagesContract = defineRoutes('quick-messages', {
  listQuickMessages: {
    method: 'GET',
    path: '/quick-messages',
    summary: 'List quick answers, a page at a time',
    query: quickMessagesQuery,
    response: okResponse(quickMessagesPageSchema),
  },
  listAllQuickMessages: {
    method: 'GET',
    path: '/quick-messages/list',
    summary: 'List every quick answer the user may use (composer)',
    query: quickMessagesListQuery,
    response: okResponse(z.array(quickMessageViewSchema)),
  },
  getQuickMessage: {
    method: 'GET',
    path: '/quick-messages/:id',
    summary: 'Read one quick answer',
    params: idParam,
    response: one,
  },
  createQuickMessage: {
    method: 'POST',
    path: '/quick-messages',
    summary: 'Create a quick answer',
    body: quickMessageSchema,
    response: createdResponse(quickMessageViewSchema),
  },
  updateQuickMessage: {
    method: 'PUT',
    path: '/quick-messages/:id',
    summary: 'Change a quick answer',
    params: idParam,
    body: quickMessageUpdateSchema,
    response: one,
  },
  deleteQuickMessage: {
    method: 'DELETE',
    path: '/quick-messages/:id',
    summary: 'Delete a quick answer',
    params: idParam,
    response: noContentResponse,
  },
  uploadQuickMessageMedia: {
    method: 'POST',
    path: '/quick-messages/:id/media-upload',
    summary: 'Attach a file to a quick answer',
    params: idParam,
    consumes: ['multipart/form-data'],
    response: one,
  },
  removeQuickMessageMedia: {
    method: 'DELETE',
    path: '/quick-messages/:id/media-upload',
    summary: "Remove a quick answer's file",
    params: idParam,
    response: one,
  },
});
