import { z } from 'zod';
import { dateTime } from './responses';

// SPEC §3 Help: a platform-wide help video.
export const helpViewSchema = z.object({
  id: z.number(),
  title: z.string(),
  video: z.string(),
  description: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type HelpView = z.input<typeof helpViewSchema>;
