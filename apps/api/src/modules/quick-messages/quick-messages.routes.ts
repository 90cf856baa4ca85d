import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGE_MEDIA_MAX_BYTES,
  createdResponse,
  idParam,
  messageMediaExtensions,
  noContentResponse,
  okResponse,
  quickMessageSchema,
  quickMessagesPageSchema,
  quickMessageUpdateSchema,
  quickMessageViewSchema,
  quickMessagesListQuery,
  quickMessagesQuery,
} from '@atendi/shared';
import { uploaderOf, type UploadRule } from '../../platform/uploads';
import {
  createQuickMessage,
  deleteQuickMessage,
  getQuickMessage,
  listAllQuickMessages,
  listQuickMessages,
  quickMessageMediaOwner,
  setQuickMessageMedia,
  updateQuickMessage,
} from './quick-messages.service';

const tags = ['quick-messages'];
// The attachment goes out with the answer from the chat, so it follows the chat's own file rule.
const mediaRule: UploadRule = {
  extensions: messageMediaExtensions,
  maxBytes: MESSAGE_MEDIA_MAX_BYTES,
};

// SPEC §7 "Quick messages". Every profile keeps its own; the service guards company-wide ones.
export const quickMessagesRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const one = okResponse(quickMessageViewSchema);

  app.get(
    '/quick-messages',
    {
      schema: {
        summary: 'List quick answers, a page at a time',
        operationId: 'listQuickMessages',
        tags,
        querystring: quickMessagesQuery,
        response: okResponse(quickMessagesPageSchema),
      },
    },
    async (request) => listQuickMessages(app.deps, request.auth, request.query),
  );
  app.get(
    '/quick-messages/list',
    {
      schema: {
        summary: 'List every quick answer the user may use (composer)',
        operationId: 'listAllQuickMessages',
        tags,
        querystring: quickMessagesListQuery,
        response: okResponse(z.array(quickMessageViewSchema)),
      },
    },
    async (request) => listAllQuickMessages(app.deps, request.auth),
  );
  app.get(
    '/quick-messages/:id',
    {
      schema: {
        summary: 'Read one quick answer',
        operationId: 'getQuickMessage',
        tags,
        params: idParam,
        response: one,
      },
    },
    async (request) => getQuickMessage(app.deps, request.auth, request.params.id),
  );
  app.post(
    '/quick-messages',
    {
      schema: {
        summary: 'Create a quick answer',
        operationId: 'createQuickMessage',
        tags,
        body: quickMessageSchema,
        response: createdResponse(quickMessageViewSchema),
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createQuickMessage(app.deps, request.auth, request.body)),
  );
  app.put(
    '/quick-messages/:id',
    {
      schema: {
        summary: 'Change a quick answer',
        operationId: 'updateQuickMessage',
        tags,
        params: idParam,
        body: quickMessageUpdateSchema,
        response: one,
      },
    },
    async (request) => updateQuickMessage(app.deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/quick-messages/:id',
    {
      schema: {
        summary: 'Delete a quick answer',
        operationId: 'deleteQuickMessage',
        tags,
        params: idParam,
        response: noContentResponse,
      },
    },
    async (request, reply) => {
      await deleteQuickMessage(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  // SPEC §7: form fields typeArch and file; only the file matters here.
  app.post(
    '/quick-messages/:id/media-upload',
    {
      schema: {
        summary: 'Attach a file to a quick answer',
        operationId: 'uploadQuickMessageMedia',
        tags,
        params: idParam,
        consumes: ['multipart/form-data'],
        response: one,
      },
    },
    async (request) => {
      // Check the answer first so a refused request stores nothing.
      const owner = await quickMessageMediaOwner(app.deps, request.auth, request.params.id);
      const file = await app.deps.uploads.receive(request, uploaderOf(request, owner), mediaRule);
      try {
        return await setQuickMessageMedia(app.deps, request.auth, request.params.id, file);
      } catch (error) {
        await app.deps.uploads.remove(owner, file.storedName);
        throw error;
      }
    },
  );
  app.delete(
    '/quick-messages/:id/media-upload',
    {
      schema: {
        summary: "Remove a quick answer's file",
        operationId: 'removeQuickMessageMedia',
        tags,
        params: idParam,
        response: one,
      },
    },
    async (request) => setQuickMessageMedia(app.deps, request.auth, request.params.id, null),
  );
};
