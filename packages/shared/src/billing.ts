import { z } from 'zod';
import { invoiceStatuses } from './constants';
import { dateTime } from './responses';

// SPEC §3 Subscription and Invoice, §4 Subscription status, §5 Checkout, §7 Subscriptions.

// The statuses the screens know; the provider's others (past_due, unpaid, paused,
// incomplete_expired) show as unknown.
export const subscriptionStatuses = [
  'active',
  'canceled',
  'incomplete',
  'trialing',
  'unknown',
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

export type InvoiceStatus = (typeof invoiceStatuses)[number];

export const subscriptionViewSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  plan: z.object({ id: z.number(), name: z.string() }).nullable(),
  status: z.enum(subscriptionStatuses),
  // The provider's own status word (e.g. past_due), for support questions.
  providerStatus: z.string(),
  startDate: dateTime.nullable(),
  // End of the period paid for (SPEC "end date / currentPeriodEnd").
  currentPeriodEnd: dateTime.nullable(),
  // The subscription ends at currentPeriodEnd instead of renewing.
  cancelAtPeriodEnd: z.boolean(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type SubscriptionView = z.input<typeof subscriptionViewSchema>;

export const invoiceViewSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  subscriptionId: z.number().nullable(),
  // In the currency's main unit (39.00, not cents).
  value: z.number(),
  // ISO 4217, lower case as the provider writes it (usd).
  currency: z.string(),
  dueDate: dateTime.nullable(),
  status: z.enum(invoiceStatuses),
  paidAt: dateTime.nullable(),
  // The provider's hosted page of the invoice (pay or download), when it has one.
  hostedInvoiceUrl: z.string().nullable(),
  createdAt: dateTime,
});
export type InvoiceView = z.input<typeof invoiceViewSchema>;

// GET /subscriptions: the company's subscriptions (newest first) and invoices (newest first).
// paymentsConfigured is false when the server has no payment provider keys: nothing can be bought,
// and the screens say so.
export const subscriptionsOverviewSchema = z.object({
  paymentsConfigured: z.boolean(),
  subscriptions: z.array(subscriptionViewSchema),
  invoices: z.array(invoiceViewSchema),
});
export type SubscriptionsOverview = z.input<typeof subscriptionsOverviewSchema>;

// Super users may read another company's (the companies settings tab).
export const subscriptionsQuerySchema = z.object({
  companyId: z.coerce.number().int().positive().optional(),
});

// ISO 3166-1 alpha-2 codes the card provider accepts in a billing address.
export const countryCodes = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS ' +
  'BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE ' +
  'EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM ' +
  'HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC ' +
  'LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA ' +
  'NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO ' +
  'TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

// Postal codes: 3 to 10 letters or digits, inner spaces or hyphens allowed (01310-100, SW1A 1AA, 11000).
export const zipPattern = /^[A-Za-z0-9](?:[A-Za-z0-9 -]{1,8})[A-Za-z0-9]$/;

const required = (max: number) => z.string().trim().min(1, 'Required').max(max);

// SPEC §5 Checkout: the billing details our steps collect. Card fields are the provider's own page's.
export const billingDetailsSchema = z.object({
  firstName: required(80),
  lastName: required(80),
  address: required(200),
  city: required(100),
  state: required(100),
  zip: z.string().trim().regex(zipPattern, 'Invalid postal code'),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .refine((code) => countryCodes.includes(code), 'Unknown country'),
});
export type BillingDetails = z.infer<typeof billingDetailsSchema>;

// POST /subscriptions/checkout: the plan by id or by its price id; billing details are optional for API
// callers (the provider's page then asks for the address), the web steps always send them.
export const checkoutSchema = z
  .object({
    planId: z.coerce.number().int().positive().optional(),
    priceId: z.string().trim().min(1).max(255).optional(),
    billing: billingDetailsSchema.optional(),
  })
  .refine((input) => input.planId !== undefined || input.priceId !== undefined, {
    message: 'planId or priceId is required',
    path: ['planId'],
  });
export type CheckoutInput = z.infer<typeof checkoutSchema>;

export const checkoutResultSchema = z.object({ url: z.string() });
export type CheckoutResult = z.input<typeof checkoutResultSchema>;

// POST /subscriptions/webhook answers the provider.
export const webhookReceiptSchema = z.object({
  received: z.boolean(),
  // The event id was seen before: nothing was done again.
  duplicate: z.boolean(),
});
