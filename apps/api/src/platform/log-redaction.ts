import type { FastifyRequest } from 'fastify';

// SPEC §7 puts the reset code and the new password in the path; they must never reach a log.
export const redactUrl = (url: string) =>
  url.replace(/^(\/resetpasswords\/[^/]+)\/[^/]+\/[^/?#]+/i, '$1/[redacted]/[redacted]');

export const requestSerializer = (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.url),
  host: request.host,
  remoteAddress: request.ip,
});
