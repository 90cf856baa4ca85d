import { randomUUID } from 'node:crypto';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

// Query parameters that are secrets: Meta's webhook check sends the connection's verify token, a
// signed upload link its signature, a socket handshake its access token, an identity provider's
// answer to the single sign-on callback its authorization code and state.
const SECRET_PARAMS =
  /([?&](?:hub\.verify_token|hub%2Everify_token|sig|token|code|state)=)[^&#]*/gi;

// SPEC §7 puts the reset code and the new password in the path; they must never reach a log.
const redactUrl = (url: string) =>
  url
    .replace(/^(\/resetpasswords\/[^/]+)\/[^/]+\/[^/?#]+/i, '$1/[redacted]/[redacted]')
    .replace(SECRET_PARAMS, '$1[redacted]');

export const requestSerializer = (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.url),
  host: request.host,
  remoteAddress: request.ip,
});

// A request id from outside (X-Request-Id from a proxy or a client) is kept when it is a plain
// token; anything else is replaced, so a log line never carries what a caller injected.
const REQUEST_ID = /^[\w.:-]{1,128}$/;
export const requestIdOf = (header: string | string[] | undefined) => {
  const given = Array.isArray(header) ? header[0] : header;
  return given && REQUEST_ID.test(given) ? given : randomUUID();
};

// Fastify logs two lines per request at info, which buried the start banner: one line per request
// instead, at debug (LOG_LEVEL=debug), except what an operator must see at info: a server error
// (5xx) or a request slower than SLOW_REQUEST_MS. Failures keep Fastify's own levels.
export class RequestLog extends LogController {
  constructor(private readonly slowMs: number) {
    // The request id's name on every line of a request.
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest() {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ) {
    if (error) return super.requestCompleted(error, request, reply, metadata);
    const responseTime = Math.round(reply.elapsedTime);
    const line = { req: request, res: reply, responseTime };
    if (reply.statusCode >= 500) reply.log.info(line, 'request failed');
    else if (responseTime >= this.slowMs) reply.log.info(line, 'slow request');
    else reply.log.debug(line, 'request completed');
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
