import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  announcementSchema,
  announcementsPageSchema,
  announcementUpdateSchema,
  announcementViewSchema,
  createdResponse,
  idParam,
  noContentResponse,
  okResponse,
  pageQuery,
} from '@atendi/shared';
import { imageRule, uploaderOf } from '../../platform/uploads';
import {
  announcementOwner,
  createAnnouncement,
  deleteAnnouncement,
  getAnnouncement,
  listAnnouncements,
  setAnnouncementMedia,
  updateAnnouncement,
} from './announcements.service';

const tags = ['announcements'];

export const announcementsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  // SPEC §2 gate: announcements stay readable while a company is not active.
  const read = { access: { allowInactiveCompany: true } };
  const write = { access: { superOnly: true } };
  const one = okResponse(announcementViewSchema);

  app.get(
    '/announcements',
    {
      schema: {
        summary: 'List announcements, newest first (active ones for company users)',
        operationId: 'listAnnouncements',
        tags,
        querystring: pageQuery,
        response: okResponse(announcementsPageSchema),
      },
      config: read,
    },
    async (request) => listAnnouncements(app.deps, request.auth, request.query),
  );
  app.get(
    '/announcements/:id',
    {
      schema: {
        summary: 'Read one announcement',
        operationId: 'getAnnouncement',
        tags,
        params: idParam,
        response: one,
      },
      config: read,
    },
    async (request) => getAnnouncement(app.deps, request.auth, request.params.id),
  );
  app.post(
    '/announcements',
    {
      schema: {
        summary: 'Publish an announcement to every company',
        operationId: 'createAnnouncement',
        tags,
        body: announcementSchema,
        response: createdResponse(announcementViewSchema),
      },
      config: write,
    },
    async (request, reply) =>
      reply.status(201).send(await createAnnouncement(app.deps, request.auth, request.body)),
  );
  app.put(
    '/announcements/:id',
    {
      schema: {
        summary: 'Change an announcement',
        operationId: 'updateAnnouncement',
        tags,
        params: idParam,
        body: announcementUpdateSchema,
        response: one,
      },
      config: write,
    },
    async (request) => updateAnnouncement(app.deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/announcements/:id',
    {
      schema: {
        summary: 'Delete an announcement',
        operationId: 'deleteAnnouncement',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config: write,
    },
    async (request, reply) => {
      await deleteAnnouncement(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/announcements/:id/media-upload',
    {
      schema: {
        summary: 'Attach an image to an announcement',
        operationId: 'uploadAnnouncementMedia',
        tags,
        params: idParam,
        consumes: ['multipart/form-data'],
        response: one,
      },
      config: write,
    },
    async (request) => {
      // Check the record first so a refused request stores nothing.
      const owner = await announcementOwner(app.deps, request.auth, request.params.id);
      const file = await app.deps.uploads.receive(request, uploaderOf(request, owner), imageRule);
      try {
        return await setAnnouncementMedia(app.deps, request.auth, request.params.id, file);
      } catch (error) {
        await app.deps.uploads.remove(owner, file.storedName);
        throw error;
      }
    },
  );
  app.delete(
    '/announcements/:id/media-upload',
    {
      schema: {
        summary: "Remove an announcement's image",
        operationId: 'removeAnnouncementMedia',
        tags,
        params: idParam,
        response: one,
      },
      config: write,
    },
    async (request) => setAnnouncementMedia(app.deps, request.auth, request.params.id, null),
  );
};
