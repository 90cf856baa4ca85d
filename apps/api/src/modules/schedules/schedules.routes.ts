import type { FastifyInstance } from 'fastify';
import {
  schedulesContract as schedules,
  MESSAGE_MEDIA_MAX_BYTES,
  messageMediaExtensions,
} from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
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

// SPEC §2: schedules are a plan feature (useSchedules).
const config = { access: { planFeature: 'useSchedules' as const } };
// What WhatsApp takes as an attachment, as for a message sent from the chat.
const mediaRule: UploadRule = {
  extensions: messageMediaExtensions,
  maxBytes: MESSAGE_MEDIA_MAX_BYTES,
};

// SPEC §7 "Schedules". The sending job is schedules.sender.ts.
export const schedulesRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);

  route(schedules.listSchedules, config, async (request) =>
    listSchedules(app.deps, request.auth, request.query),
  );
  route(schedules.getSchedule, config, async (request) =>
    getSchedule(app.deps, request.auth, request.params.id),
  );
  route(schedules.createSchedule, config, async (request) =>
    createSchedule(app.deps, request.auth, request.body),
  );
  route(schedules.updateSchedule, config, async (request) =>
    updateSchedule(app.deps, request.auth, request.params.id, request.body),
  );
  route(schedules.deleteSchedule, config, async (request) => {
    await deleteSchedule(app.deps, request.auth, request.params.id);
  });
  route(schedules.uploadScheduleMedia, config, async (request) => {
    // Check the schedule first so a refused request stores nothing.
    const owner = await scheduleMediaOwner(app.deps, request.auth, request.params.id);
    const file = await app.deps.uploads.receive(request, uploaderOf(request, owner), mediaRule);
    try {
      return await setScheduleMedia(app.deps, request.auth, request.params.id, file);
    } catch (error) {
      await app.deps.uploads.remove(owner, file.storedName);
      throw error;
    }
  });
  route(schedules.removeScheduleMedia, config, async (request) =>
    setScheduleMedia(app.deps, request.auth, request.params.id, null),
  );
};
