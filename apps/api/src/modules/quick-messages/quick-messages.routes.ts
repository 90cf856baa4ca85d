import type { FastifyInstance } from 'fastify';
import {
  quickMessagesContract as quickMessages,
  MESSAGE_MEDIA_MAX_BYTES,
  messageMediaExtensions,
} from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
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

// The attachment goes out with the answer from the chat, so it follows the chat's own file rule.
const mediaRule: UploadRule = {
  extensions: messageMediaExtensions,
  maxBytes: MESSAGE_MEDIA_MAX_BYTES,
};

// SPEC §7 "Quick messages". Every profile keeps its own; the service guards company-wide ones.
export const quickMessagesRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);

  route(quickMessages.listQuickMessages, async (request) =>
    listQuickMessages(app.deps, request.auth, request.query),
  );
  route(quickMessages.listAllQuickMessages, async (request) =>
    listAllQuickMessages(app.deps, request.auth),
  );
  route(quickMessages.getQuickMessage, async (request) =>
    getQuickMessage(app.deps, request.auth, request.params.id),
  );
  route(quickMessages.createQuickMessage, async (request) =>
    createQuickMessage(app.deps, request.auth, request.body),
  );
  route(quickMessages.updateQuickMessage, async (request) =>
    updateQuickMessage(app.deps, request.auth, request.params.id, request.body),
  );
  route(quickMessages.deleteQuickMessage, async (request) => {
    await deleteQuickMessage(app.deps, request.auth, request.params.id);
  });
  // SPEC §7: form fields typeArch and file; only the file matters here.
  route(quickMessages.uploadQuickMessageMedia, async (request) => {
    // Check the answer first so a refused request stores nothing.
    const owner = await quickMessageMediaOwner(app.deps, request.auth, request.params.id);
    const file = await app.deps.uploads.receive(request, uploaderOf(request, owner), mediaRule);
    try {
      return await setQuickMessageMedia(app.deps, request.auth, request.params.id, file);
    } catch (error) {
      await app.deps.uploads.remove(owner, file.storedName);
      throw error;
    }
  });
  route(quickMessages.removeQuickMessageMedia, async (request) =>
    setQuickMessageMedia(app.deps, request.auth, request.params.id, null),
  );
};
