import type { PlanView } from '@atendi/shared';

// The plan fields a subscribe card lists as included or not.
export const planFlags = [
  'useCampaigns',
  'useOpenAi',
  'useIntegrations',
  'useExternalApi',
  'useKanban',
  'useSchedules',
] as const satisfies readonly (keyof PlanView)[];

export const planLimits = [
  'users',
  'connections',
  'queues',
] as const satisfies readonly (keyof PlanView)[];
