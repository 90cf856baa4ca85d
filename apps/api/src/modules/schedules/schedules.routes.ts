import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MESSAGE_MEDIA_MAX_BYTES,
  createdResponse,
  idParam,
  messageMediaExtensions,
  noContentResponse,
  okResponse,
  scheduleSchema,
  schedulesPageSchema,
  scheduleViewSchema,
  scheduleUpdateSchema,
  schedulesQuery,
} from '@atendi/shared';
import { uploaderOf, type UploadRule } from '../../platform/uploads';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  scheduleMediaOwner,
  setScheduleMedia,
  updateSchedule,
} from './schedules.service';

const tags = ['schedules'];
// SPEC §2: schedules are a plan feature (useSchedules).
const config = { access: { planFeature: 'useSchedules' as const } };
// What WhatsApp takes as an attachment, as for a message sent from the chat.
const mediaRule: UploadRule = {
  extensions: messageMediaExtensions,
  maxBytes: MESSAGE_MEDIA_MAX_BYTES,
};

// SPEC §7 "Schedules". The sending job is schedules.sender.ts.
export const schedulesRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const one = okResponse(scheduleViewSchema);

  app.get(
    '/schedules',
    {
      schema: {
        summary: 'List scheduled messages, a page at a time',
        operationId: 'listSchedules',
        tags,
        querystring: schedulesQuery,
        response: okResponse(schedulesPageSchema),
      },
      config,
    },
    async (request) => listSchedules(app.deps, request.auth, request.query),
  );
  app.get(
    '/schedules/:id',
    {
      schema: {
        summary: 'Read one scheduled message',
        operationId: 'getSchedule',
        tags,
        params: idParam,
        response: one,
      },
      config,
    },
    async (request) => getSchedule(app.deps, request.auth, request.params.id),
  );
  app.post(
    '/schedules',
    {
      schema: {
        summary: 'Schedule a message',
        operationId: 'createSchedule',
        tags,
        body: scheduleSchema,
        response: createdResponse(scheduleViewSchema),
      },
      config,
    },
    async (request, reply) =>
      reply.status(201).send(await createSchedule(app.deps, request.auth, request.body)),
  );
  app.put(
    '/schedules/:id',
    {
      schema: {
        summary: 'Change a scheduled message',
        operationId: 'updateSchedule',
        tags,
        params: idParam,
        body: scheduleUpdateSchema,
        response: one,
      },
      config,
    },
    async (request) => updateSchedule(app.deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/schedules/:id',
    {
      schema: {
        summary: 'Delete a scheduled message',
        operationId: 'deleteSchedule',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config,
    },
    async (request, reply) => {
      await deleteSchedule(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/schedules/:id/media-upload',
    {
      schema: {
        summary: 'Attach a file to a scheduled message',
        operationId: 'uploadScheduleMedia',
        tags,
        params: idParam,
        consumes: ['multipart/form-data'],
        response: one,
      },
      config,
    },
    async (request) => {
      // Check the schedule first so a refused request stores nothing.
      const owner = await scheduleMediaOwner(app.deps, request.auth, request.params.id);
      const file = await app.deps.uploads.receive(request, uploaderOf(request, owner), mediaRule);
      try {
        return await setScheduleMedia(app.deps, request.auth, request.params.id, file);
      } catch (error) {
        await app.deps.uploads.remove(owner, file.storedName);
        throw error;
      }
    },
  );
  app.delete(
    '/schedules/:id/media-upload',
    {
      schema: {
        summary: "Remove a scheduled message's file",
        operationId: 'removeScheduleMedia',
        tags,
        params: idParam,
        response: one,
      },
      config,
    },
    async (request) => setScheduleMedia(app.deps, request.auth, request.params.id, null),
  );
};
