import { z } from 'zod';
import { calendarDate } from './dashboard';
import { dateTime } from './responses';

// The audit log (issue 37): who did what, when, from where. The actions recorded so far:
export const auditActions = [
  'auth.login',
  'auth.login_failed',
  'auth.two_factor_failed',
  'auth.two_factor_enabled',
  'auth.two_factor_disabled',
  'auth.two_factor_reset',
  'auth.session_ended',
  'auth.password_reset',
  'auth.sso_failed',
  'sso.updated',
  'sso.deleted',
  'api_token.created',
  'api_token.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.disabled',
  'webhook.secret_viewed',
  'user.created',
  'user.updated',
  'user.password_changed',
  'user.deleted',
  'setting.updated',
  'connection.created',
  'connection.updated',
  'connection.token_changed',
  'connection.deleted',
  'ticket.deleted',
  'contact.deleted',
  'campaign.deleted',
  // Downloads: who took which file, with the filters used (never its content).
  'export.report',
  'export.audit',
  'export.campaign',
  'export.transcript',
  'export.conversations',
  // Billing: plans (super users), a company's plan, status and due date, checkouts, and what the
  // payment provider's webhooks changed.
  'plan.created',
  'plan.updated',
  'plan.deleted',
  'company.updated',
  'billing.checkout_started',
  'billing.subscription_changed',
] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditEntrySchema = z.object({
  id: z.number(),
  companyId: z.number().nullable(),
  userId: z.number().nullable(),
  // The actor's email when it happened ('' when nobody was signed in).
  actor: z.string(),
  action: z.string(),
  target: z.string(),
  detail: z.record(z.string(), z.unknown()),
  address: z.string(),
  createdAt: dateTime,
});
export type AuditEntry = z.input<typeof auditEntrySchema>;

// GET /audit and /audit.csv: newest first, by user, action and calendar days (the company's zone);
// super users may read another company's (companyId) or the platform's entries of none (companyId 0).
export const auditQuerySchema = z.object({
  userId: z.coerce.number().int().positive().optional(),
  action: z.enum(auditActions).optional(),
  date_from: calendarDate.optional(),
  date_to: calendarDate.optional(),
  companyId: z.coerce.number().int().min(0).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  hasMore: z.boolean(),
});
export type AuditPage = z.input<typeof auditPageSchema>;
