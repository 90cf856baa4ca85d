import { z } from 'zod';
import { defineRoutes } from '../contract';
import { createdResponse, errorResponseSchema, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';
import {
  conversationExportCreateSchema,
  conversationExportListSchema,
  conversationExportSchema,
} from '../conversation-exports';

// Issue 38: the company's conversations for a date range, exported in the background (admins).
export const conversationExportsContract = defineRoutes('conversation exports', {
  listConversationExports: {
    method: 'GET',
    path: '/conversation-exports',
    summary: 'The company’s exports, newest first, with their progress',
    response: okResponse(conversationExportListSchema),
  },
  createConversationExport: {
    method: 'POST',
    path: '/conversation-exports',
    summary: 'Export the conversations that began in a range of days (built in the background)',
    body: conversationExportCreateSchema,
    response: createdResponse(conversationExportSchema),
  },
  getConversationExport: {
    method: 'GET',
    path: '/conversation-exports/:id',
    summary: 'One export and its progress',
    params: idParam,
    response: okResponse(conversationExportSchema),
  },
  downloadConversationExport: {
    method: 'GET',
    path: '/conversation-exports/:id/download',
    summary: 'Download a built export (JSON Lines, CSV, or a ZIP with the files)',
    params: idParam,
    response: {
      200: {
        description: 'The export file',
        content: {
          'application/x-ndjson': { schema: z.string().describe('One transcript per line') },
          'text/csv': { schema: z.string().describe('One message per row') },
          'application/zip': { schema: z.string().describe('The file and a media/ folder') },
        },
      },
      '4xx': errorResponseSchema,
    },
  },
  deleteConversationExport: {
    method: 'DELETE',
    path: '/conversation-exports/:id',
    summary: 'Delete an export and its file (one being built stops)',
    params: idParam,
    response: noContentResponse,
  },
});
