import { sql } from 'drizzle-orm';
import { companies, plans, userQueues, users } from '../db/schema';

// What the auth hook reads of a caller, a session's (auth-hook.ts) or an API token's maker
// (api-tokens.ts): who they are, their queues, their company's status and their plan's features.
// The query joins users, companies and plans.
export const callerColumns = {
  userId: users.id,
  companyId: users.companyId,
  profile: users.profile,
  isSuper: users.super,
  companyStatus: companies.status,
  dueDate: companies.dueDate,
  queueIds: sql<
    number[]
  >`array(select ${userQueues.queueId} from ${userQueues} where ${userQueues.userId} = ${users.id})`,
  plan: {
    useCampaigns: plans.useCampaigns,
    useKanban: plans.useKanban,
    useOpenAi: plans.useOpenAi,
    useIntegrations: plans.useIntegrations,
    useSchedules: plans.useSchedules,
    useExternalApi: plans.useExternalApi,
  },
};
