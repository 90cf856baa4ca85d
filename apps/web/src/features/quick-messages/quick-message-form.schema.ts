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
});

export type QuickMessageFormValues = z.infer<typeof quickMessageFormSchema>;
