import { z } from 'zod';
import { dateTime } from './responses';

// SPEC §3 Plan: GET /plans/list, /plans/all, /plans, /plans/{id}, and the session's company plan.
export const planViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  users: z.number(),
  connections: z.number(),
  queues: z.number(),
  // SPEC §9: AI agents the company may have, and answers each may send in a calendar month (the
  // company's time zone); 0 is unlimited.
  aiAgents: z.number(),
  aiMessages: z.number(),
  // Tokens the company's every use of AI may spend in a calendar month (0 is unlimited).
  aiTokens: z.number(),
  value: z.number(),
  useCampaigns: z.boolean(),
  useKanban: z.boolean(),
  useOpenAi: z.boolean(),
  useIntegrations: z.boolean(),
  useSchedules: z.boolean(),
  useExternalApi: z.boolean(),
  // MB of files (sent, received, attachments) its companies may keep; 0 is unlimited.
  storageMb: z.number(),
  // The card provider's price that checkout charges for this plan; null until a super user syncs it.
  stripePriceId: z.string().nullable(),
  // The platform's billing currency (BILLING_CURRENCY, ISO 4217 in lower case, e.g. "usd"): the one
  // value is in and checkout charges in, so that screens write the price as that currency.
  currency: z.string(),
});
export type PlanView = z.input<typeof planViewSchema>;

// GET /companies/listPlan/{companyId} answers the plan as stored, with its checkout price id.
export const planRecordSchema = planViewSchema.extend({
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type PlanRecord = z.input<typeof planRecordSchema>;
