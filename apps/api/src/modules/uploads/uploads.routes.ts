import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@atendi/shared';
import { AppError } from '../../platform/errors';
import { uploadCsp } from '../../platform/security-headers';

export const STORAGE_RECONCILE_JOB = 'storage-reconcile';

// Files are fetched by <img>/<audio> tags, which cannot send a bearer token: a signed, expiring link
// issued with the record (to whoever may see it) is the permission.
export const uploadsRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  // Companies' storage counts follow the files on disk (platform/storage.ts): at start, then daily.
  app.deps.jobs.every({
    name: STORAGE_RECONCILE_JOB,
    everyMs: 24 * 3600 * 1000,
    run: (now) => app.deps.uploads.reconcile(now),
  });
  app.get(
    '/uploads/:companyId/:name',
    {
      schema: {
        tags: ['uploads'],
        security: [],
        params: z.object({
          companyId: z.coerce.number().int().positive(),
          name: z.string().max(64),
        }),
        querystring: z.object({ expires: z.coerce.number().int(), sig: z.string().max(100) }),
        // The stored file itself, streamed with its own content type: no JSON to describe.
        response: {
          200: {
            description: 'The file, with the content type it was stored with',
            content: {
              '*/*': {
                schema: z
                  .custom<Readable>((value) => value instanceof Readable)
                  .meta({ type: 'string', format: 'binary' }),
              },
            },
          },
          '4xx': errorResponseSchema,
        },
      },
      config: { access: { public: true } },
      // Opened in a tab, the file is shown by the browser's viewer, which the API's 'none' blocks.
      helmet: { contentSecurityPolicy: uploadCsp },
    },
    async (request, reply) => {
      const { companyId, name } = request.params;
      const found = app.deps.uploads.resolve(
        companyId,
        name,
        request.query.expires,
        request.query.sig,
      );
      if (!found) throw new AppError('ERR_NOT_FOUND', 'File not found');
      await access(found.file).catch(() => {
        throw new AppError('ERR_NOT_FOUND', 'File not found');
      });
      return reply
        .type(found.contentType)
        .header('Cache-Control', 'private, max-age=3600')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', 'inline')
        .send(createReadStream(found.file));
    },
  );
};
