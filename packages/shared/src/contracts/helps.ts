import { z } from 'zod';
import { defineRoutes } from '../contract';
import { helpViewSchema } from '../helps';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { helpSchema, helpUpdateSchema, idParam } from '../schemas';

const list = okResponse(z.array(helpViewSchema));

// SPEC §7 Helps: the help centre's videos; every user reads them, super users change them.
export const helpsContract = defineRoutes('helps', {
  listHelps: {
    method: 'GET',
    path: '/helps',
    summary: 'List help videos, optionally matching a search',
    query: z.object({ searchParam: z.string().max(200).optional() }),
    response: list,
  },
  listAllHelps: {
    method: 'GET',
    path: '/helps/list',
    summary: 'List every help video',
    response: list,
  },
  getHelp: {
    method: 'GET',
    path: '/helps/:id',
    summary: 'Read one help video',
    params: idParam,
    response: okResponse(helpViewSchema),
  },
  createHelp: {
    method: 'POST',
    path: '/helps',
    summary: 'Add a help video',
    body: helpSchema,
    response: createdResponse(helpViewSchema),
  },
  updateHelp: {
    method: 'PUT',
    path: '/helps/:id',
    summary: 'Change a help video',
    params: idParam,
    body: helpUpdateSchema,
    response: okResponse(helpViewSchema),
  },
  deleteHelp: {
    method: 'DELETE',
    path: '/helps/:id',
    summary: 'Delete a help video',
    params: idParam,
    response: noContentResponse,
  },
});
