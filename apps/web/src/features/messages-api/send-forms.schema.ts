import { z } from 'zod';
import { externalNumber, MESSAGE_BODY_MAX } from '@atendi/shared';

// SPEC §5 Messages API test forms: token, number, and body or media file required. The number
// follows the API's own rule (externalNumber); messages are i18n keys.
const token = z.string().trim().min(1, 'validation.required');

const number = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .refine((value) => externalNumber.safeParse(value).success, 'messagesApi.validation.number');

const body = z.string().max(MESSAGE_BODY_MAX, 'messagesApi.validation.bodyTooLong');

export const textSendFormSchema = z.object({
  token,
  number,
  body: body.refine((text) => text.trim().length > 0, 'validation.required'),
});
export type TextSendFormValues = z.infer<typeof textSendFormSchema>;

export const mediaSendFormSchema = z.object({
  token,
  number,
  // The caption: optional, it goes with the file.
  body,
  medias: z.custom<File | null>(
    (value) => value instanceof File,
    'messagesApi.validation.fileRequired',
  ),
});
export type MediaSendFormValues = z.infer<typeof mediaSendFormSchema>;
