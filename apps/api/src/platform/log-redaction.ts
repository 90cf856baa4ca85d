import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

// Query parameters that are secrets: Meta's webhook check sends the connection's verify token, a
// signed upload link its signature, a socket handshake its access token.
const SECRET_PARAMS = /([?&](?:hub\.verify_token|hub%2Everify_token|sig|token)=)[^&#]*/gi;

// SPEC §7 puts the reset code and the new password in the path; they must never reach a log.
export const redactUrl = (url: string) =>
  url
    .replace(/^(\/resetpasswords\/[^/]+)\/[^/]+\/[^/?#]+/i, '$1/[redacted]/[redacted]')
    .replace(SECRET_PARAMS, '$1[redacted]');

export const requestSerializer = (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.url),
  host: request.host,
  remoteAddress: request.ip,
});

// Fastify logs two lines per request at info, which buried the start banner: one line per request
// instead, at debug (LOG_LEVEL=debug). Failures keep Fastify's own levels.
export class DebugRequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ) {
    if (error) return super.requestCompleted(error, request, reply, metadata);
    reply.log.debug(
      { req: request, res: reply, responseTime: Math.round(reply.elapsedTime) },
      'request completed',
    );
  }

  // The 404 is already in the request's own line.
  override routeNotFound() {}

  // A browser dropping a media download it no longer needs is routine, not news.
  override streamError(
    error: Error & { code?: string },
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ) {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') reply.log.debug({ res: reply }, error.message);
    else super.streamError(error, request, reply, metadata);
  }
}
