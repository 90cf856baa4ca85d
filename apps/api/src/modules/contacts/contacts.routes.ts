import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactListQuery, contactSchema, contactUpdateSchema, idParam } from '@atendi/shared';
import {
  createContact,
  deleteContact,
  getContact,
  listContactOptions,
  listContacts,
  updateContact,
} from './contacts.service';

export const contactsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;
  const tags = ['contacts'];

  app.get('/contacts', { schema: { tags, querystring: contactListQuery } }, async (request) =>
    listContacts(db, request.auth, request.query),
  );
  app.get(
    '/contacts/list',
    {
      schema: {
        tags,
        querystring: z.object({ companyId: z.coerce.number().int().positive().optional() }),
      },
    },
    async (request) => listContactOptions(db, request.auth, request.query.companyId),
  );
  app.get('/contacts/:id', { schema: { tags, params: idParam } }, async (request) =>
    getContact(db, request.auth, request.params.id),
  );
  app.post('/contacts', { schema: { tags, body: contactSchema } }, async (request, reply) =>
    reply.status(201).send(await createContact(app.deps, request.auth, request.body)),
  );
  app.put(
    '/contacts/:id',
    { schema: { tags, params: idParam, body: contactUpdateSchema } },
    async (request) => updateContact(app.deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/contacts/:id',
    {
      schema: { tags, params: idParam },
      config: { access: { permission: 'contacts-page:deleteContact' } },
    },
    async (request, reply) => {
      await deleteContact(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
};
