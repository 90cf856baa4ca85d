import { z } from 'zod';
import { customerDataSchema, orderDataSchema, SENTIMENTS } from './prompts';
import { dateTime } from './responses';

// Live insight (issue 40): the sandbox's sentiment and structured extraction run on live
// conversations of a company whose liveInsight setting is on, and its rules act on what they find.

// What an analysis found besides the mood: the customer's and the order's data (the sandbox's
// structured output).
export const ticketInsightDataSchema = z.object({
  datos_cliente: customerDataSchema,
  datos_pedido: orderDataSchema,
});
export type TicketInsightData = z.infer<typeof ticketInsightDataSchema>;

// A rule's condition, every part it names holding: the customer's sentiment is one of `sentiments`
// (none listed: any), the conversation is over (`finalOnly`), the order's total is at least
// `minOrderTotal` (null: no total asked for). A rule that names nothing acts on every analysis.
export const insightConditionSchema = z.object({
  sentiments: z
    .array(z.enum(SENTIMENTS))
    .max(SENTIMENTS.length)
    .transform((list) => [...new Set(list)]),
  finalOnly: z.boolean().default(false),
  minOrderTotal: z.number().min(0).max(1e12).nullable().default(null),
});
export type InsightCondition = z.infer<typeof insightConditionSchema>;

// What a rule does: adds a tag of the company to the ticket ('tag'), or moves its kanban card to a
// lane ('lane': the lane's tag replaces the ticket's other lane tags).
export const INSIGHT_ACTIONS = ['tag', 'lane'] as const;
export const insightActionSchema = z.object({
  type: z.enum(INSIGHT_ACTIONS),
  tagId: z.number().int().positive(),
});
export type InsightAction = z.infer<typeof insightActionSchema>;

// POST /insight-rules and PUT /insight-rules/{id} (the whole rule).
export const insightRuleSchema = z.object({
  name: z.string().trim().min(1).max(100),
  enabled: z.boolean().default(true),
  condition: insightConditionSchema,
  action: insightActionSchema,
});
export type InsightRuleInput = z.infer<typeof insightRuleSchema>;

export const insightRuleViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  enabled: z.boolean(),
  condition: z.object({
    sentiments: z.array(z.enum(SENTIMENTS)),
    finalOnly: z.boolean(),
    minOrderTotal: z.number().nullable(),
  }),
  action: insightActionSchema,
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type InsightRuleView = z.input<typeof insightRuleViewSchema>;

// GET /tickets/{ticketId}/insight: the newest analysis of the conversation (null: none yet).
export const ticketInsightViewSchema = z.object({
  ticketId: z.number(),
  sentiment: z.enum(SENTIMENTS),
  final: z.boolean(),
  structured: ticketInsightDataSchema,
  // The newest message the analysis read.
  messageId: z.number(),
  updatedAt: dateTime,
});
export type TicketInsightView = z.input<typeof ticketInsightViewSchema>;
export const ticketInsightResponseSchema = z.object({
  insight: ticketInsightViewSchema.nullable(),
});
export type TicketInsightResponse = z.input<typeof ticketInsightResponseSchema>;
