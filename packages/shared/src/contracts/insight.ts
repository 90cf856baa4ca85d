import { z } from 'zod';
import { defineRoutes } from '../contract';
import { insightRuleSchema, insightRuleViewSchema, ticketInsightResponseSchema } from '../insight';
import { ticketIdParam } from '../messages';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';

// Live insight (issue 40): the company's rules, for admins of a company whose plan has useOpenAi,
// and a conversation's newest analysis, for whoever may see the ticket.
export const insightContract = defineRoutes('insight', {
  listInsightRules: {
    method: 'GET',
    path: '/insight-rules',
    summary: "List the company's live insight rules",
    response: okResponse(z.array(insightRuleViewSchema)),
  },
  createInsightRule: {
    method: 'POST',
    path: '/insight-rules',
    summary: 'Create a live insight rule',
    body: insightRuleSchema,
    response: createdResponse(insightRuleViewSchema),
  },
  updateInsightRule: {
    method: 'PUT',
    path: '/insight-rules/:id',
    summary: 'Change a live insight rule',
    params: idParam,
    body: insightRuleSchema,
    response: okResponse(insightRuleViewSchema),
  },
  deleteInsightRule: {
    method: 'DELETE',
    path: '/insight-rules/:id',
    summary: 'Delete a live insight rule',
    params: idParam,
    response: noContentResponse,
  },
  getTicketInsight: {
    method: 'GET',
    path: '/tickets/:ticketId/insight',
    summary: "Read the newest live insight analysis of a ticket's conversation",
    params: ticketIdParam,
    response: okResponse(ticketInsightResponseSchema),
  },
});
