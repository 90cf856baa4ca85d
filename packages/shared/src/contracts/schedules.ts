import { defineRoutes } from '../contract';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import {
  scheduleSchema,
  scheduleUpdateSchema,
  scheduleViewSchema,
  schedulesPageSchema,
  schedulesQuery,
} from '../schedules';
import { idParam } from '../schemas';

const one = okResponse(scheduleViewSchema);

// SPEC §7 Schedules: messages scheduled to a contact, a plan feature (useSchedules).
export const schedulesContract = defineRoutes('schedules', {
  listSchedules: {
    method: 'GET',
    path: '/schedules',
    summary: 'List scheduled messages, a page at a time',
    query: schedulesQuery,
    response: okResponse(schedulesPageSchema),
  },
  getSchedule: {
    method: 'GET',
    path: '/schedules/:id',
    summary: 'Read one scheduled message',
    params: idParam,
    response: one,
  },
  createSchedule: {
    method: 'POST',
    path: '/schedules',
    summary: 'Schedule a message',
    body: scheduleSchema,
    response: createdResponse(scheduleViewSchema),
  },
  updateSchedule: {
    method: 'PUT',
    path: '/schedules/:id',
    summary: 'Change a scheduled message',
    params: idParam,
    body: scheduleUpdateSchema,
    response: one,
  },
  deleteSchedule: {
    method: 'DELETE',
    path: '/schedules/:id',
    summary: 'Delete a scheduled message',
    params: idParam,
    response: noContentResponse,
  },
  uploadScheduleMedia: {
    method: 'POST',
    path: '/schedules/:id/media-upload',
    summary: 'Attach a file to a scheduled message',
    params: idParam,
    consumes: ['multipart/form-data'],
    response: one,
  },
  removeScheduleMedia: {
    method: 'DELETE',
    path: '/schedules/:id/media-upload',
    summary: "Remove a scheduled message's file",
    params: idParam,
    response: one,
  },
});
