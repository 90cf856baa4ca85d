import type { FastifyInstance, FastifyRequest } from 'fastify';
import { externalApiContract, externalNumber } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { AppError } from '../../platform/errors';
import { discardMedia, readMessageForm, type MessageForm } from './message-form';
import { authorizeApiCall, type ApiConnection, sendExternal } from './external-api';
import { idempotencyKeyOf } from './send-keys';

// SPEC §7 External messages API. Public to the session hook: the connection token in the
// Authorization header is checked by the route's own onRequest hook, before the body is read or
// validated (a caller without a valid token learns nothing about its payload).
export const externalApiRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const callers = new WeakMap<FastifyRequest, ApiConnection>();

  const onRequest = async (request: FastifyRequest) => {
    callers.set(request, await authorizeApiCall(deps, request.headers.authorization));
  };

  route(externalApiContract.sendExternalMessage, { onRequest }, async (request, reply) => {
    const connection = callers.get(request)!;
    const idempotencyKey = idempotencyKeyOf(request.headers['idempotency-key']);
    let number: string;
    let form: MessageForm;
    if (request.isMultipart()) {
      // The token's uploads are limited as a user's are.
      const uploader = { companyId: connection.companyId, rateKey: `api:${connection.id}` };
      const read = await readMessageForm(request, deps.uploads, uploader, { fields: ['number'] });
      form = { body: read.body, quotedMsgId: null, medias: read.medias };
      const parsed = externalNumber.safeParse(read.fields.number ?? '');
      if (!parsed.success) {
        await discardMedia(deps.uploads, connection.companyId, read.medias);
        throw new AppError('ERR_VALIDATION', 'number: use a phone number', {
          fields: { number: parsed.error.issues.map((issue) => issue.message) },
        });
      }
      number = parsed.data;
    } else if (request.body) {
      number = request.body.number;
      form = { body: request.body.body, quotedMsgId: null, medias: [] };
    } else {
      throw new AppError(
        'ERR_VALIDATION',
        'Send { number, body } as JSON, or number, body and medias as multipart/form-data',
      );
    }
    const sent = await sendExternal(
      deps,
      connection,
      { number, form, idempotencyKey },
      { kick: deps.outbox.kick, log: request.log },
    );
    if (sent.replayed) reply.header('Idempotent-Replayed', 'true');
    return reply.status(sent.replayed ? 200 : 201).send(sent.answer);
  });
};
