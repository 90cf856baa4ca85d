import { z } from 'zod';
import { profiles } from '@atendi/shared';
import { requiredEmail, requiredName } from '../../lib/form-rules';

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
    })
    .superRefine(({ password }, ctx) => {
      if (isEdit && password === '') return;
      if (password.length < 5 || password.length > 50) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'validation.passwordLength' });
      }
    });

export type UserFormValues = z.infer<ReturnType<typeof userFormSchema>>;
