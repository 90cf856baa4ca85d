import { z } from 'zod';

// SPEC §5 Quick message: shortcode required ('Campo Obligatorio'). Messages are i18n keys.
export const quickMessageFormSchema = z.object({
  shortcode: z
    .string()
    .trim()
    .min(1, 'quickMessages.validation.required')
    .max(100, 'quickMessages.validation.shortcodeTooLong'),
  message: z.string().max(10000, 'quickMessages.validation.messageTooLong'),
  geral: z.boolean(),
  // The queue whose agents share it, as text ('' for none): admins only, when not company-wide.
  queueId: z.string(),
});

export type QuickMessageFormValues = z.infer<typeof quickMessageFormSchema>;
