import { z } from 'zod';
import { companyStatuses, recurrences } from './constants';
import { planRecordSchema } from './plans';
import { aiUsageSchema } from './prompts';
import { dateTime } from './responses';
import { scheduleSlotViewSchema } from './schemas';

// SPEC §3 Company, as GET /companies, /companies/{id}, POST, PUT and company-{id}-company answer it.
export const companyViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  planId: z.number(),
  plan: z.object({ id: z.number(), name: z.string() }).nullable(),
  status: z.enum(companyStatuses),
  // The status the gate applies: an active company past its due date is overdue.
  effectiveStatus: z.enum(companyStatuses),
  dueDate: dateTime.nullable(),
  recurrence: z.enum(recurrences),
  campaignsEnabled: z.boolean(),
  schedules: z.array(scheduleSlotViewSchema),
  // IANA: business hours, SLA clocks, greetings, schedules and the dashboard's days are read in it.
  timeZone: z.string(),
  // Bytes of files the company keeps, and what its plan allows (0: unlimited).
  storageUsed: z.number(),
  storageLimit: z.number(),
  // Its AI agents this month against its plan's quotas.
  aiUsage: aiUsageSchema,
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type CompanyView = z.input<typeof companyViewSchema>;

// POST /companies: the admin's generated password, once, when none was given.
export const createdCompanySchema = companyViewSchema.extend({
  adminPassword: z.string().optional(),
});
export type CreatedCompany = z.input<typeof createdCompanySchema>;

// GET /companies/listPlan/{companyId}: the company with its whole plan.
export const companyWithPlanSchema = companyViewSchema.extend({ plan: planRecordSchema });
export type CompanyWithPlan = z.input<typeof companyWithPlanSchema>;

export const companiesPageSchema = z.object({
  companies: z.array(companyViewSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type CompaniesPage = z.input<typeof companiesPageSchema>;
