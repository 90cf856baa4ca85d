import { z } from 'zod';

// SPEC §5 field rules that several forms share. Messages are i18n keys, translated where shown.
export const requiredEmail = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .pipe(z.email('validation.email'));

// Names of users, of a company signing up and of queues: 2 to 50 characters.
export const requiredName = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .min(2, 'validation.nameLength')
  .max(50, 'validation.nameLength');
