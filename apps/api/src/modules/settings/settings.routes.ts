import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { okResponse, settingUpdateSchema, settingViewSchema } from '@atendi/shared';
import { listSettings, updateSetting } from './settings.service';

const tags = ['settings'];

export const settingsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/settings',
    {
      schema: {
        summary: "List the company's settings",
        operationId: 'listSettings',
        tags,
        response: okResponse(z.array(settingViewSchema)),
      },
    },
    async (request) => listSettings(app.deps.db, request.auth),
  );
  app.put(
    '/settings/:key',
    {
      schema: {
        summary: 'Change one company setting',
        operationId: 'updateSetting',
        tags,
        params: z.object({ key: z.string().min(1).max(100) }),
        body: settingUpdateSchema,
        response: okResponse(settingViewSchema),
      },
      config: { access: { permission: 'settings:update' } },
    },
    async (request) =>
      updateSetting(app.deps, request.auth, request.params.key, request.body.value),
  );
};
