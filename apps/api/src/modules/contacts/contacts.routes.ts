import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  contactDetailViewSchema,
  contactImportSchema,
  contactListPageSchema,
  contactListQuery,
  contactOptionSchema,
  contactSchema,
  contactUpdateSchema,
  contactUploadResultSchema,
  contactUploadSchema,
  createdResponse,
  idParam,
  noContentResponse,
  okResponse,
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
  const detail = okResponse(contactDetailViewSchema);
  const uploaded = okResponse(contactUploadResultSchema);

  app.get(
    '/contacts',
    {
      schema: {
        summary: 'List contacts, a page at a time',
        operationId: 'listContacts',
        tags,
        querystring: contactListQuery,
        response: okResponse(contactListPageSchema),
      },
    },
    async (request) => listContacts(db, request.auth, request.query),
  );
  app.get(
    '/contacts/list',
    {
      schema: {
        summary: "List every contact's id, name and number (pickers)",
        operationId: 'listContactOptions',
        tags,
        querystring: z.object({ companyId: z.coerce.number().int().positive().optional() }),
        response: okResponse(z.array(contactOptionSchema)),
      },
    },
    async (request) => listContactOptions(db, request.auth, request.query.companyId),
  );
  app.get(
    '/contacts/:id',
    {
      schema: {
        summary: 'Read one contact with its extra fields',
        operationId: 'getContact',
        tags,
        params: idParam,
        response: detail,
      },
    },
    async (request) => getContact(db, request.auth, request.params.id),
  );
  app.post(
    '/contacts',
    {
      schema: {
        summary: 'Create a contact',
        operationId: 'createContact',
        tags,
        body: contactSchema,
        response: createdResponse(contactDetailViewSchema),
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createContact(app.deps, request.auth, request.body)),
  );
  // Rows of a spreadsheet (the web reads the .xlsx); a refused row is listed, never fatal.
  app.post(
    '/contacts/upload',
    {
      schema: {
        summary: 'Add spreadsheet rows as contacts; refused rows are listed',
        operationId: 'uploadContacts',
        tags,
        body: contactUploadSchema,
        response: uploaded,
      },
    },
    async (request) => uploadContacts(app.deps, request.auth, request.body),
  );
  // The phone's address book (linked-device connections); refused rows are listed the same way.
  app.post(
    '/contacts/import',
    {
      schema: {
        summary: "Add the paired phone's address book as contacts",
        operationId: 'importPhoneContacts',
        tags,
        body: contactImportSchema,
        response: uploaded,
      },
    },
    async (request) => importPhoneContacts(app.deps, request.auth, request.body.whatsappId),
  );
  app.put(
    '/contacts/:id',
    {
      schema: {
        summary: 'Change a contact',
        operationId: 'updateContact',
        tags,
        params: idParam,
        body: contactUpdateSchema,
        response: detail,
      },
    },
    async (request) => updateContact(app.deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/contacts/:id',
    {
      schema: {
        summary: 'Delete a contact with its tickets and messages',
        operationId: 'deleteContact',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config: { access: { permission: 'contacts-page:deleteContact' } },
    },
    async (request, reply) => {
      await deleteContact(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
};
