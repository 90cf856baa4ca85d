import { z } from 'zod';
import { requiredEmail, requiredName } from '../../lib/form-rules';

// Form rules from SPEC §5. Messages are i18n keys, translated where they are shown;
// the server validates the same payloads with the schemas in @atendi/shared.

export const loginFormSchema = z.object({
  email: requiredEmail,
  password: z.string().min(1, 'validation.required'),
});
export type LoginFormValues = z.infer<typeof loginFormSchema>;

// Sign-up and reset: one rule, the shared strongPassword's.
const newPassword = z
  .string()
  .min(8, 'validation.strongPassword')
  .max(100, 'validation.strongPassword')
  .regex(/[A-Z]/, 'validation.strongPassword')
  .regex(/[a-z]/, 'validation.strongPassword')
  .regex(/[0-9]/, 'validation.strongPassword');

export const signupFormSchema = z.object({
  name: requiredName,
  userName: requiredName,
  email: requiredEmail,
  phone: z.string().trim().max(12, 'validation.phone').regex(/^\d*$/, 'validation.phone'),
  password: newPassword,
  planId: z.string().min(1, 'validation.required'),
});
export type SignupFormValues = z.infer<typeof signupFormSchema>;

export const forgotEmailSchema = z.object({ email: requiredEmail });
export type ForgotEmailValues = z.infer<typeof forgotEmailSchema>;

export const resetPasswordFormSchema = z
  .object({
    code: z.string().trim().min(1, 'validation.required'),
    newPassword,
    confirmPassword: z.string().min(1, 'validation.required'),
  })
  .refine((values) => values.confirmPassword === values.newPassword, {
    message: 'validation.passwordsMismatch',
    path: ['confirmPassword'],
  });
export type ResetPasswordFormValues = z.infer<typeof resetPasswordFormSchema>;
