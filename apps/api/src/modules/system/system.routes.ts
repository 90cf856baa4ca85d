import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { APP_VERSION, okResponse } from '@atendi/shared';

export const systemRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/version',
    {
      schema: {
        tags: ['system'],
        security: [],
        response: okResponse(z.object({ version: z.string() })),
      },
      config: { access: { public: true } },
    },
    async () => ({ version: APP_VERSION }),
  );
};
