import { errorStatus, type ErrorBody, type ErrorCode } from '@atendi/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { StorageUnavailable } from './file-store';

const defaultMessages: Partial<Record<ErrorCode, string>> = {
  ERR_INTERNAL_SERVER_ERROR: 'Unexpected error, try again later',
  ERR_VALIDATION: 'The request is not valid',
  ERR_NOT_FOUND: 'Not found',
  ERR_NO_PERMISSION: 'You do not have permission for this action',
  ERR_SESSION_EXPIRED: 'Session expired, please log in',
  ERR_INVALID_TOKEN: 'Invalid or expired token',
};

// The one error type: services throw it, the handler below turns it into `{ error, message }`.
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: Record<string, string[]>;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message?: string,
    options: {
      status?: number;
      fields?: Record<string, string[]>;
      details?: Record<string, unknown>;
      headers?: Record<string, string>;
      // What went wrong underneath (logged for a 5xx; never sent).
      cause?: unknown;
    } = {},
  ) {
    super(message ?? defaultMessages[code] ?? code, { cause: options.cause });
    this.code = code;
    this.status = options.status ?? errorStatus[code];
    this.fields = options.fields;
    this.details = options.details;
    this.headers = options.headers;
  }
}

type PgError = { code?: string; constraint?: string; detail?: string };

export const pgErrorOf = (error: unknown): PgError | undefined => {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth += 1) {
    if (
      typeof e === 'object' &&
      e !== null &&
      'code' in e &&
      typeof e.code === 'string' &&
      /^[0-9A-Z]{5}$/.test(e.code)
    ) {
      return e as PgError;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
};

// PostgreSQL errors caused by what the client sent: a duplicate or a row still in use (409), and
// values the database refuses (400; 22021/22P05 are text it cannot store, a NUL past the edges).
const CONFLICT_CODES = ['23505', '23001'];
const INVALID_INPUT_CODES = [
  '22P02',
  '22003',
  '22007',
  '22008',
  '22021',
  '22P05',
  '23502',
  '23503',
  '23514',
];

// A failure while storing what a person asked for: their own mistake keeps its 4xx; anything else
// is the database's and is named by what could not be created (SPEC §8), logged, never half-written.
export const storeFailure = (
  error: unknown,
  code: 'ERR_CREATING_MESSAGE' | 'ERR_CREATING_TICKET',
  message: string,
) => {
  if (error instanceof AppError) return error;
  const pg = pgErrorOf(error)?.code ?? '';
  if (CONFLICT_CODES.includes(pg) || INVALID_INPUT_CODES.includes(pg)) return error;
  const status = (error as { statusCode?: number } | null)?.statusCode;
  if (status && status < 500) return error;
  return new AppError(code, message, { cause: error });
};

// '/user/email' → 'user.email'; the whole body is '_'.
const fieldPath = (instancePath: string) =>
  instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';

export const registerErrorHandling = (app: FastifyInstance) => {
  app.setNotFoundHandler((request, reply) => {
    const body: ErrorBody = {
      error: 'ERR_NOT_FOUND',
      message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
    };
    reply.status(404).send(body);
  });

  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error.cause ?? error }, error.message);
      if (error.headers) reply.headers(error.headers);
      const body: ErrorBody = { error: error.code, message: error.message };
      if (error.fields) body.fields = error.fields;
      if (error.details) body.details = error.details;
      return reply.status(error.status).send(body);
    }
    // The file store did not answer (platform/file-store.ts): the files come back with it.
    if (error instanceof StorageUnavailable) {
      request.log.error({ err: error.cause ?? error }, error.message);
      return reply.status(503).send({
        error: 'ERR_STORAGE_UNAVAILABLE',
        message: 'The file storage is not reachable right now; try again in a moment',
      } satisfies ErrorBody);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const key = fieldPath(issue.instancePath);
        (fields[key] ??= []).push(issue.message ?? 'Invalid value');
      }
      const where = error.validationContext ?? 'request';
      const body: ErrorBody = { error: 'ERR_VALIDATION', message: `Invalid ${where}`, fields };
      return reply.status(400).send(body);
    }
    const pg = pgErrorOf(error);
    // A duplicate, or a delete still referenced by other rows.
    if (CONFLICT_CODES.includes(pg?.code ?? '')) {
      return reply.status(409).send({
        error: 'ERR_VALIDATION',
        message:
          pg?.code === '23001'
            ? 'This record is still in use by other records'
            : 'A record with these values already exists',
      } satisfies ErrorBody);
    }
    if (pg && INVALID_INPUT_CODES.includes(pg.code ?? '')) {
      return reply
        .status(400)
        .send({ error: 'ERR_VALIDATION', message: 'The request is not valid' } satisfies ErrorBody);
    }
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported content type.
      const code: ErrorCode =
        status === 413
          ? 'ERR_PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'ERR_UNSUPPORTED_MEDIA_TYPE'
            : status === 429
              ? 'ERR_TOO_MANY_REQUESTS'
              : status === 404
                ? 'ERR_NOT_FOUND'
                : 'ERR_VALIDATION';
      return reply.status(status).send({ error: code, message: error.message } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({
      error: 'ERR_INTERNAL_SERVER_ERROR',
      message: defaultMessages.ERR_INTERNAL_SERVER_ERROR!,
    } satisfies ErrorBody);
  });
};
