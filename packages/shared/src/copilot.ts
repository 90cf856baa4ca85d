import { z } from 'zod';

// Issue 40, the agents' co-pilot. POST /tickets/{id}/suggestion: a draft reply the agent edits
// before sending (nothing is stored or sent), in the language the customer writes in, and the
// knowledge base passages it was written from.
export const replySuggestionSchema = z.object({
  text: z.string(),
  // The customer's language as the model named it (ISO 639-1, e.g. 'es'); null when it did not say.
  language: z.string().nullable(),
  passages: z.array(
    z.object({
      documentId: z.number(),
      documentName: z.string(),
      page: z.number().nullable(),
      ordinal: z.number(),
      text: z.string(),
    }),
  ),
});
export type ReplySuggestion = z.input<typeof replySuggestionSchema>;
