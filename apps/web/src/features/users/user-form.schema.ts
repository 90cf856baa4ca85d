import { z } from 'zod';
import { profiles } from '@atendi/shared';
import { requiredEmail, requiredName } from '../../lib/form-rules';

const MAX_TICKETS_LIMIT = 500;

const isMaxTickets = (value: number) => value >= 1 && value <= MAX_TICKETS_LIMIT;

const limitText = z
  .string()
  .trim()
  .refine((value) => value === '' || (/^\d+$/.test(value) && isMaxTickets(Number(value))), {
    message: 'users.modal.maxTicketsRange',
  });

// What the API takes: a number, or null for no limit.
export const maxTicketsOf = (typed: string) => (typed.trim() === '' ? null : Number(typed));

// SPEC §5 User rules. Messages are i18n keys; on edit a blank password keeps the current one.
export const userFormSchema = (isEdit: boolean) =>
  z
    .object({
      name: requiredName,
      email: requiredEmail,
      password: z.string(),
      profile: z.enum(profiles),
      queueIds: z.array(z.number()),
      whatsappId: z.number().nullable(),
      allTicket: z.boolean(),
      // Automatic assignment's most open conversations for the user, as typed; '' for no limit.
      maxTickets: limitText,
      // And in each of their queues, by queue id; '' for none of its own.
      queueLimits: z.record(z.string(), limitText),
    })
    .superRefine(({ password }, ctx) => {
      if (isEdit && password === '') return;
      if (password.length < 5 || password.length > 50) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'validation.passwordLength' });
      }
    });

export type UserFormValues = z.infer<ReturnType<typeof userFormSchema>>;

// The limits of the queues chosen that have one, as the API takes them.
export const queueLimitsOf = (typed: Record<string, string>, queueIds: number[]) =>
  queueIds.flatMap((queueId) => {
    const text = typed[String(queueId)]?.trim() ?? '';
    return text === '' ? [] : [{ queueId, maxTickets: Number(text) }];
  });
