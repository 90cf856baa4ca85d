import { z } from 'zod';
import { defineRoutes } from '../contract';
import { okResponse } from '../responses';
import { settingUpdateSchema } from '../schemas';
import { settingViewSchema } from '../settings';

// SPEC §7 Settings: the company's key/value settings.
export const settingsContract = defineRoutes('settings', {
  listSettings: {
    method: 'GET',
    path: '/settings/',
    summary: "List the company's settings",
    response: okResponse(z.array(settingViewSchema)),
  },
  updateSetting: {
    method: 'PUT',
    path: '/settings/:key',
    summary: 'Change one company setting',
    params: z.object({ key: z.string().min(1).max(100) }),
    body: settingUpdateSchema,
    response: okResponse(settingViewSchema),
  },
});
