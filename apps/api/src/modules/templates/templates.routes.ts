import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  chatMessageViewSchema,
  createdResponse,
  idParam,
  okResponse,
  templateListSchema,
  templateSendSchema,
  ticketIdParam,
} from '@atendi/shared';
import { listTemplates, sendTemplateMessage, syncTemplates } from './templates.service';

// Cloud API message templates: the connection's copy (every profile reads it: agents send templates
// from the inbox), its sync (admins), and a template sent in a ticket.
export const templatesRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const tags = ['templates'];
  const edit = { access: { permission: 'connections-page:editOrDeleteConnection' as const } };
  const list = okResponse(templateListSchema);

  app.get(
    '/whatsapp/:id/templates',
    {
      schema: {
        summary: "List a Cloud API connection's message templates",
        operationId: 'listTemplates',
        tags,
        params: idParam,
        response: list,
      },
    },
    async (request) => listTemplates(deps.db, request.auth, request.params.id),
  );

  app.post(
    '/whatsapp/:id/templates/sync',
    {
      schema: {
        summary: 'Copy the message templates from the WhatsApp Business Account',
        operationId: 'syncTemplates',
        tags,
        params: idParam,
        response: list,
      },
      config: edit,
    },
    async (request) => syncTemplates(deps, request.auth, request.params.id, request.log),
  );

  app.post(
    '/messages/:ticketId/template',
    {
      schema: {
        summary: 'Send an approved message template in a ticket',
        operationId: 'sendTemplateMessage',
        tags,
        params: ticketIdParam,
        body: templateSendSchema,
        response: createdResponse(z.array(chatMessageViewSchema)),
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await sendTemplateMessage(deps, request.auth, request.params.ticketId, request.body, {
          kick: deps.outbox.kick,
          log: request.log,
        }),
      ),
  );
};
