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

// "$39" or "$39,90": whole prices without decimals, in the language's digits.
export const formatPlanPrice = (value: number, language: string) =>
  `$${new Intl.NumberFormat(language, {
    minimumFractionDigits: Number.isInteger(value) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(value)}`;
