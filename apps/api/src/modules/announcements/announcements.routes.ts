import type { FastifyInstance } from 'fastify';
import { announcementsContract as announcements } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
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

export const announcementsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  // SPEC §2 gate: announcements stay readable while a company is not active.
  const read = { access: { allowInactiveCompany: true } };
  const write = { access: { superOnly: true } };

  route(announcements.listAnnouncements, read, async (request) =>
    listAnnouncements(app.deps, request.auth, request.query),
  );
  route(announcements.getAnnouncement, read, async (request) =>
    getAnnouncement(app.deps, request.auth, request.params.id),
  );
  route(announcements.createAnnouncement, write, async (request) =>
    createAnnouncement(app.deps, request.auth, request.body),
  );
  route(announcements.updateAnnouncement, write, async (request) =>
    updateAnnouncement(app.deps, request.auth, request.params.id, request.body),
  );
  route(announcements.deleteAnnouncement, write, async (request) => {
    await deleteAnnouncement(app.deps, request.auth, request.params.id);
  });
  route(announcements.uploadAnnouncementMedia, write, async (request) => {
    // Check the record first so a refused request stores nothing.
    const owner = await announcementOwner(app.deps, request.auth, request.params.id);
    const file = await app.deps.uploads.receive(request, uploaderOf(request, owner), imageRule);
    try {
      return await setAnnouncementMedia(app.deps, request.auth, request.params.id, file);
    } catch (error) {
      await app.deps.uploads.remove(owner, file.storedName);
      throw error;
    }
  });
  route(announcements.removeAnnouncementMedia, write, async (request) =>
    setAnnouncementMedia(app.deps, request.auth, request.params.id, null),
  );
};
