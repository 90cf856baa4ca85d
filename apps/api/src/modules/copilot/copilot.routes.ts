import type { FastifyInstance } from 'fastify';
import { ticketsContract as tickets } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { suggestReply, summariseTicket } from './copilot.service';

// Issue 40, the agents' co-pilot: whoever may see the ticket, on a plan with AI (the automatic
// summaries' queue and recorder are listed in background.ts).
export const copilotRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const config = { access: { planFeature: 'useOpenAi' as const } };

  route(tickets.suggestTicketReply, config, async (request) =>
    suggestReply(deps, request.auth, request.params.id),
  );
  route(tickets.summariseTicket, config, async (request) =>
    summariseTicket(deps, request.auth, request.params.id),
  );
};
