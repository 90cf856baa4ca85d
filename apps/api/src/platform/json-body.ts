import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';

// No request the API takes nests deeper than a handful of levels (a Cloud API webhook, the
// deepest, about ten); a body nested thousands deep is only an attack on the parser and the code
// walking it.
export const MAX_JSON_DEPTH = 64;

// Whether JSON text opens more than `max` arrays or objects inside each other, read in one pass
// over the text before it is parsed (brackets inside strings do not count).
export const jsonDepthExceeds = (text: string, max = MAX_JSON_DEPTH) => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i += 1;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (char === 0x7d || char === 0x5d) depth -= 1;
  }
  return false;
};

type Done = (error: Error | null, body?: unknown) => void;

// Replaces the scope's JSON parser with Fastify's own (prototype poisoning refused) behind the
// depth check; `keep` sees the exact bytes first (the webhooks whose signature covers them).
export const useDepthCheckedJson = (
  app: FastifyInstance,
  keep?: (request: FastifyRequest, raw: Buffer) => void,
) => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const parse = (request: FastifyRequest, body: string, done: Done) => {
    if (!jsonDepthExceeds(body)) return parseJson(request, body, done);
    done(
      new AppError(
        'ERR_VALIDATION',
        `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`,
      ),
    );
  };
  app.removeContentTypeParser('application/json');
  if (!keep) return app.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    keep(request, body as Buffer);
    parse(request, (body as Buffer).toString('utf8'), done);
  });
};
