import { z } from 'zod';
import { defineRoutes } from '../contract';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam, pageQuery, userCreateSchema, userUpdateSchema } from '../schemas';
import { presences } from '../constants';
import { presenceViewSchema, userOptionSchema, usersPageSchema, userViewSchema } from '../users';

// SPEC §7 Users: admins manage them; everyone reads the short list (pickers) and themselves.
export const usersContract = defineRoutes('users', {
  listUsers: {
    method: 'GET',
    path: '/users',
    summary: 'List users, a page at a time',
    query: pageQuery,
    response: okResponse(usersPageSchema),
  },
  listUserOptions: {
    method: 'GET',
    path: '/users/list',
    summary: "List every user's id, name, email, profile and presence (pickers)",
    // Super users may list another company's.
    query: z.object({ companyId: z.coerce.number().int().positive().optional() }),
    response: okResponse(z.array(userOptionSchema)),
  },
  getUser: {
    method: 'GET',
    path: '/users/:id',
    summary: 'Read one user',
    params: idParam,
    response: okResponse(userViewSchema),
  },
  createUser: {
    method: 'POST',
    path: '/users',
    summary: 'Create a user',
    body: userCreateSchema,
    response: createdResponse(userViewSchema),
  },
  updateUser: {
    method: 'PUT',
    path: '/users/:id',
    summary: 'Change a user (users may change themselves)',
    params: idParam,
    body: userUpdateSchema,
    response: okResponse(userViewSchema),
  },
  setPresence: {
    method: 'PUT',
    path: '/presence',
    summary: "Set one's own availability (online, away or offline)",
    body: z.object({ availability: z.enum(presences) }),
    response: okResponse(presenceViewSchema),
  },
  endUserSessions: {
    method: 'DELETE',
    path: '/users/:id/sessions',
    summary: "End every session of a user of the company (admins; super users for anyone's)",
    params: idParam,
    response: noContentResponse,
  },
  resetTwoFactor: {
    method: 'DELETE',
    path: '/users/:id/two-factor',
    summary: "Remove a user's second factor (super users): they enrol again if it is required",
    params: idParam,
    response: noContentResponse,
  },
  deleteUser: {
    method: 'DELETE',
    path: '/users/:id',
    summary: 'Delete a user',
    params: idParam,
    response: noContentResponse,
  },
});
