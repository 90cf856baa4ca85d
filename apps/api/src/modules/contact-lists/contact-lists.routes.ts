import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  contactListItemSchema,
  contactListItemsPageSchema,
  contactListItemsQuery,
  contactListItemUpdateSchema,
  contactListItemViewSchema,
  contactListSchema,
  contactListUploadResultSchema,
  contactListsPageSchema,
  contactListsQuery,
  contactListViewSchema,
  createdResponse,
  idParam,
  noContentResponse,
  okResponse,
} from '@atendi/shared';
import { uploadContactList } from './contact-list-upload';
import {
  createContactList,
  createContactListItem,
  deleteContactList,
  deleteContactListItem,
  getContactList,
  getContactListItem,
  listAllContactLists,
  listContactListItems,
  listContactLists,
  updateContactList,
  updateContactListItem,
} from './contact-lists.service';

// SPEC §7 "Contact lists" and "Contact list items": the campaigns area, for admins of a company whose
// plan has campaigns.
export const contactListsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const tags = ['contact lists'];
  const config = {
    access: { permission: 'campaigns:manage' as const, planFeature: 'useCampaigns' as const },
  };
  const list = okResponse(contactListViewSchema);
  const item = okResponse(contactListItemViewSchema);

  app.get(
    '/contact-lists',
    {
      schema: {
        summary: 'List contact lists, a page at a time',
        operationId: 'listContactLists',
        tags,
        querystring: contactListsQuery,
        response: okResponse(contactListsPageSchema),
      },
      config,
    },
    async (request) => listContactLists(deps, request.auth, request.query),
  );
  app.get(
    '/contact-lists/list',
    {
      schema: {
        summary: 'List every contact list (campaign picker)',
        operationId: 'listAllContactLists',
        tags,
        response: okResponse(z.array(contactListViewSchema)),
      },
      config,
    },
    async (request) => listAllContactLists(deps, request.auth),
  );
  app.get(
    '/contact-lists/:id',
    {
      schema: {
        summary: 'Read one contact list',
        operationId: 'getContactList',
        tags,
        params: idParam,
        response: list,
      },
      config,
    },
    async (request) => getContactList(deps, request.auth, request.params.id),
  );
  app.post(
    '/contact-lists',
    {
      schema: {
        summary: 'Create a contact list',
        operationId: 'createContactList',
        tags,
        body: contactListSchema,
        response: createdResponse(contactListViewSchema),
      },
      config,
    },
    async (request, reply) =>
      reply.status(201).send(await createContactList(deps, request.auth, request.body)),
  );
  app.put(
    '/contact-lists/:id',
    {
      schema: {
        summary: 'Rename a contact list',
        operationId: 'updateContactList',
        tags,
        params: idParam,
        body: contactListSchema,
        response: list,
      },
      config,
    },
    async (request) => updateContactList(deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/contact-lists/:id',
    {
      schema: {
        summary: 'Delete a contact list and its contacts',
        operationId: 'deleteContactList',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config,
    },
    async (request, reply) => {
      await deleteContactList(deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/contact-lists/:id/upload',
    {
      schema: {
        summary: "Add a spreadsheet's rows to a contact list",
        operationId: 'uploadContactList',
        tags,
        params: idParam,
        consumes: ['multipart/form-data'],
        response: okResponse(contactListUploadResultSchema),
      },
      config,
    },
    async (request) => uploadContactList(deps, request.auth, request.params.id, request),
  );

  app.get(
    '/contact-list-items',
    {
      schema: {
        summary: "List a contact list's contacts, a page at a time",
        operationId: 'listContactListItems',
        tags,
        querystring: contactListItemsQuery,
        response: okResponse(contactListItemsPageSchema),
      },
      config,
    },
    async (request) => listContactListItems(deps, request.auth, request.query),
  );
  app.get(
    '/contact-list-items/:id',
    {
      schema: {
        summary: 'Read one contact of a contact list',
        operationId: 'getContactListItem',
        tags,
        params: idParam,
        response: item,
      },
      config,
    },
    async (request) => getContactListItem(deps, request.auth, request.params.id),
  );
  app.post(
    '/contact-list-items',
    {
      schema: {
        summary: 'Add a contact to a contact list',
        operationId: 'createContactListItem',
        tags,
        body: contactListItemSchema,
        response: createdResponse(contactListItemViewSchema),
      },
      config,
    },
    async (request, reply) =>
      reply.status(201).send(await createContactListItem(deps, request.auth, request.body)),
  );
  app.put(
    '/contact-list-items/:id',
    {
      schema: {
        summary: 'Change a contact of a contact list',
        operationId: 'updateContactListItem',
        tags,
        params: idParam,
        body: contactListItemUpdateSchema,
        response: item,
      },
      config,
    },
    async (request) => updateContactListItem(deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/contact-list-items/:id',
    {
      schema: {
        summary: 'Remove a contact from a contact list',
        operationId: 'deleteContactListItem',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config,
    },
    async (request, reply) => {
      await deleteContactListItem(deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
};
