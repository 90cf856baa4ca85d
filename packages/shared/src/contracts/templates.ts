import { z } from 'zod';
import { defineRoutes } from '../contract';
import { ticketIdParam } from '../messages';
import { createdResponse, okResponse } from '../responses';
import { idParam } from '../schemas';
import { templateListSchema, templateSendSchema } from '../templates';
import { chatMessageViewSchema } from '../tickets';

const list = okResponse(templateListSchema);

// Cloud API message templates: the connection's copy (every profile reads it: agents send templates
// from the inbox), its sync (admins), and a template sent in a ticket.
export const templatesContract = defineRoutes('templates', {
  listTemplates: {
    method: 'GET',
    path: '/whatsapp/:id/templates',
    summary: "List a Cloud API connection's message templates",
    params: idParam,
    response: list,
  },
  syncTemplates: {
    method: 'POST',
    path: '/whatsapp/:id/templates/sync',
    summary: 'Copy the message templates from the WhatsApp Business Account',
    params: idParam,
    response: list,
  },
  sendTemplateMessage: {
    method: 'POST',
    path: '/messages/:ticketId/template',
    summary: 'Send an approved message template in a ticket',
    params: ticketIdParam,
    body: templateSendSchema,
    response: createdResponse(z.array(chatMessageViewSchema)),
  },
});
