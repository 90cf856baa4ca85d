import { z } from 'zod';
import { defineRoutes } from '../contract';
import { errorResponseSchema } from '../responses';

// The stored file itself, streamed with its own content type: bytes, no JSON to describe.
const fileBody = z.unknown().meta({ type: 'string', format: 'binary' });

// Stored files: fetched by <img>/<audio> tags, which cannot send a bearer token, so a signed,
// expiring link is the permission.
export const uploadsContract = defineRoutes('uploads', {
  downloadUpload: {
    method: 'GET',
    path: '/uploads/:companyId/:name',
    summary: 'Download a stored file through its signed link',
    isPublic: true,
    params: z.object({
      companyId: z.coerce.number().int().positive(),
      name: z.string().max(64),
    }),
    query: z.object({ expires: z.coerce.number().int(), sig: z.string().max(100) }),
    response: {
      200: {
        description: 'The file, with the content type it was stored with',
        content: { '*/*': { schema: fileBody } },
      },
      206: {
        description: 'The byte range asked for with Range (Content-Range says which)',
        content: { '*/*': { schema: fileBody } },
      },
      '4xx': errorResponseSchema,
      503: errorResponseSchema,
    },
  },
});
