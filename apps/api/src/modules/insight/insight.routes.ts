import type { FastifyInstance } from 'fastify';
import { insightContract as insight } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import {
  createInsightRule,
  deleteInsightRule,
  getTicketInsight,
  listInsightRules,
  updateInsightRule,
} from './insight-rules';

// Live insight (issue 40): its rules are the AI agents' admins' (a plan with useOpenAi); a ticket's
// analysis is read by whoever may see the ticket. The analysis itself runs in insight.ts (its queue
// and recorder are listed in background.ts).
export const insightRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const manage = {
    access: { permission: 'prompts:manage' as const, planFeature: 'useOpenAi' as const },
  };

  route(insight.listInsightRules, manage, async (request) =>
    listInsightRules(deps.db, request.auth),
  );
  route(insight.createInsightRule, manage, async (request) =>
    createInsightRule(deps.db, request.auth, request.body),
  );
  route(insight.updateInsightRule, manage, async (request) =>
    updateInsightRule(deps.db, request.auth, request.params.id, request.body),
  );
  route(insight.deleteInsightRule, manage, async (request) => {
    await deleteInsightRule(deps.db, request.auth, request.params.id);
  });
  route(insight.getTicketInsight, async (request) =>
    getTicketInsight(deps.db, request.auth, request.params.ticketId),
  );
};
