import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdResponse,
  idParam,
  noContentResponse,
  okResponse,
  pageQuery,
  userCreateSchema,
  userOptionSchema,
  userUpdateSchema,
  usersPageSchema,
  userViewSchema,
} from '@atendi/shared';
import {
  createUser,
  deleteUser,
  getUser,
  listUsers,
  listUsersBrief,
  updateUser,
} from './users.service';

const tags = ['users'];

export const usersRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;

  app.get(
    '/users',
    {
      schema: {
        summary: 'List users, a page at a time',
        operationId: 'listUsers',
        tags,
        querystring: pageQuery,
        response: okResponse(usersPageSchema),
      },
      config: { access: { permission: 'users:manage' } },
    },
    async (request) => listUsers(db, request.auth, request.query),
  );
  app.get(
    '/users/list',
    {
      schema: {
        summary: "List every user's id, name, email, profile and presence (pickers)",
        operationId: 'listUserOptions',
        tags,
        querystring: z.object({ companyId: z.coerce.number().int().positive().optional() }),
        response: okResponse(z.array(userOptionSchema)),
      },
    },
    async (request) => listUsersBrief(db, request.auth, request.query.companyId),
  );
  app.get(
    '/users/:id',
    {
      schema: {
        summary: 'Read one user',
        operationId: 'getUser',
        tags,
        params: idParam,
        response: okResponse(userViewSchema),
      },
    },
    async (request) => getUser(db, request.auth, request.params.id),
  );
  app.post(
    '/users',
    {
      schema: {
        summary: 'Create a user',
        operationId: 'createUser',
        tags,
        body: userCreateSchema,
        response: createdResponse(userViewSchema),
      },
      config: { access: { permission: 'users:manage' } },
    },
    async (request, reply) =>
      reply.status(201).send(await createUser(app.deps, request.auth, request.body)),
  );
  // Users edit themselves (profile dialog); the service refuses what their profile may not change.
  app.put(
    '/users/:id',
    {
      schema: {
        summary: 'Change a user (users may change themselves)',
        operationId: 'updateUser',
        tags,
        params: idParam,
        body: userUpdateSchema,
        response: okResponse(userViewSchema),
      },
    },
    async (request) => updateUser(app.deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/users/:id',
    {
      schema: {
        summary: 'Delete a user',
        operationId: 'deleteUser',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config: { access: { permission: 'users:manage' } },
    },
    async (request, reply) => {
      await deleteUser(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
};
