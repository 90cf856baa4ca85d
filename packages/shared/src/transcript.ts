import { z } from 'zod';
import { dateTime } from './responses';

// A conversation's transcript (issue 38): the ticket, who held it when, every message (media as
// links) and every internal note, in order. As JSON, or as a PDF to print or attach.
const person = z.object({ id: z.number(), name: z.string() }).nullable();

export const transcriptSchema = z.object({
  ticket: z.object({
    id: z.number(),
    uuid: z.string(),
    status: z.string(),
    createdAt: dateTime,
    contact: z.object({ id: z.number(), name: z.string(), number: z.string() }),
    connection: z.object({ id: z.number(), name: z.string() }),
    queue: person,
    user: person,
  }),
  // The company's zone the PDF's times are written in.
  timeZone: z.string(),
  // Each stretch of the ticket from arrival to resolution: its queue and who answered it.
  conversations: z.array(
    z.object({
      startedAt: dateTime,
      finishedAt: dateTime.nullable(),
      queue: person,
      user: person,
    }),
  ),
  messages: z.array(
    z.object({
      id: z.number(),
      at: dateTime,
      // The contact, a person of the company, or an AI agent (named).
      from: z.enum(['contact', 'agent', 'ai']),
      author: z.string(),
      body: z.string(),
      mediaType: z.string(),
      // What a voice note says (issue 40), null when it was not transcribed.
      transcript: z.string().nullable(),
      // A link to the file, valid for a while (as the chat's), null without a file.
      media: z.object({ url: z.string(), name: z.string().nullable() }).nullable(),
      deleted: z.boolean(),
      edited: z.boolean(),
      forwarded: z.boolean(),
      // Who reacted how (issue 39): the contact or member by name, the company's by the person.
      reactions: z.array(
        z.object({ emoji: z.string(), fromMe: z.boolean(), name: z.string().nullable() }),
      ),
    }),
  ),
  notes: z.array(z.object({ id: z.number(), at: dateTime, author: z.string(), note: z.string() })),
  exportedAt: dateTime,
});
export type Transcript = z.input<typeof transcriptSchema>;
