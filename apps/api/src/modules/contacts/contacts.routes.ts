import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  contactImportSchema,
  contactListQuery,
  contactSchema,
  contactUpdateSchema,
  contactUploadSchema,
  idParam,
} from '@atendi/shared';
import {
  createContact,
  deleteContact,
  getContact,
  listContactOptions,
  listContacts,
  updateContact,
} from './contacts.service';
import { importPhoneContacts, uploadContacts } from './contacts.upload';

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
  // Rows of a spreadsheet (the web reads the .xlsx); a refused row is listed, never fatal.
  app.post('/contacts/upload', { schema: { tags, body: contactUploadSchema } }, async (request) =>
    uploadContacts(app.deps, request.auth, request.body),
  );
  // The phone's address book (linked-device connections); refused rows are listed the same way.
  app.post('/contacts/import', { schema: { tags, body: contactImportSchema } }, async (request) =>
    importPhoneContacts(app.deps, request.auth, request.body.whatsappId),
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
