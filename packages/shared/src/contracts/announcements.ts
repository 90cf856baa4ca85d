import { defineRoutes } from '../contract';
import { announcementViewSchema, announcementsPageSchema } from '../announcements';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { announcementSchema, announcementUpdateSchema, idParam, pageQuery } from '../schemas';

const one = okResponse(announcementViewSchema);

// SPEC §7 Announcements: super users publish them to every company; companies read the active ones.
export const announcementsContract = defineRoutes('announcements', {
  listAnnouncements: {
    method: 'GET',
    path: '/announcements',
    summary: 'List announcements, newest first (active ones for company users)',
    query: pageQuery,
    response: okResponse(announcementsPageSchema),
  },
  getAnnouncement: {
    method: 'GET',
    path: '/announcements/:id',
    summary: 'Read one announcement',
    params: idParam,
    response: one,
  },
  createAnnouncement: {
    method: 'POST',
    path: '/announcements',
    summary: 'Publish an announcement to every company',
    body: announcementSchema,
    response: createdResponse(announcementViewSchema),
  },
  updateAnnouncement: {
    method: 'PUT',
    path: '/announcements/:id',
    summary: 'Change an announcement',
    params: idParam,
    body: announcementUpdateSchema,
    response: one,
  },
  deleteAnnouncement: {
    method: 'DELETE',
    path: '/announcements/:id',
    summary: 'Delete an announcement',
    params: idParam,
    response: noContentResponse,
  },
  uploadAnnouncementMedia: {
    method: 'POST',
    path: '/announcements/:id/media-upload',
    summary: 'Attach an image to an announcement',
    params: idParam,
    consumes: ['multipart/form-data'],
    response: one,
  },
  removeAnnouncementMedia: {
    method: 'DELETE',
    path: '/announcements/:id/media-upload',
    summary: "Remove an announcement's image",
    params: idParam,
    response: one,
  },
});
