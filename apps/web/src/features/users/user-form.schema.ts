import { z } from 'zod';
import { profiles } from '@atendi/shared';

// SPEC §9: forms wait 400 ms before sending.
export const SUBMIT_DELAY_MS = 400;

// SPEC §5 User rules. Messages are i18n keys; on edit a blank password keeps the current one.
export const userFormSchema = (isEdit: boolean) =>
  z
    .object({
      name: z
        .string()
        .trim()
        .min(1, 'validation.required')
        .min(2, 'validation.nameLength')
        .max(50, 'validation.nameLength'),
      email: z.string().trim().min(1, 'validation.required').pipe(z.email('validation.email')),
      password: z.string(),
      profile: z.enum(profiles),
      queueIds: z.array(z.number()),
      allTicket: z.boolean(),
    })
    .superRefine(({ password }, ctx) => {
      if (isEdit && password === '') return;
      if (password.length < 5 || password.length > 50) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'validation.passwordLength' });
      }
    });

export type UserFormValues = z.infer<ReturnType<typeof userFormSchema>>;
