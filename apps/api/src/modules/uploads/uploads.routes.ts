import type { FastifyInstance } from 'fastify';
import { uploadsContract } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { AppError } from '../../platform/errors';
import { uploadCsp } from '../../platform/security-headers';

// Files are fetched by <img>/<audio> tags, which cannot send a bearer token: a signed, expiring link
// issued with the record (to whoever may see it) is the permission. The file is streamed through the
// API from whichever store keeps it, so the link's expiry is the only one; a `Range` (an audio or
// video being sought) is answered with just those bytes.
export const uploadsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  route(
    uploadsContract.downloadUpload,
    // Opened in a tab, the file is shown by the browser's viewer, which the API's 'none' blocks.
    { helmet: { contentSecurityPolicy: uploadCsp } },
    async (request, reply) => {
      const { companyId, name } = request.params;
      const found = await app.deps.uploads.download(
        { companyId, storedName: name, expires: request.query.expires, sig: request.query.sig },
        request.headers.range,
      );
      if (!found) throw new AppError('ERR_NOT_FOUND', 'File not found');
      reply
        .type(found.contentType)
        .header('Accept-Ranges', 'bytes')
        .header('Cache-Control', 'private, max-age=3600')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', 'inline');
      if (!found.range) return reply.header('Content-Length', found.size).send(found.body);
      const { start, end } = found.range;
      return reply
        .status(206)
        .header('Content-Range', `bytes ${start}-${end}/${found.size}`)
        .header('Content-Length', end - start + 1)
        .send(found.body);
    },
  );
};
