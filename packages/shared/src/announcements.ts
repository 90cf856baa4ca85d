import { z } from 'zod';
import { dateTime } from './responses';

// SPEC §3 Announcement, as GET /announcements, /announcements/{id}, POST, PUT and media uploads answer it.
export const announcementViewSchema = z.object({
  id: z.number(),
  title: z.string(),
  text: z.string(),
  // 1 high, 2 medium, 3 low.
  priority: z.number(),
  status: z.boolean(),
  mediaName: z.string().nullable(),
  // A signed link to the image, null without one.
  mediaUrl: z.string().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type AnnouncementView = z.input<typeof announcementViewSchema>;

export const announcementsPageSchema = z.object({
  records: z.array(announcementViewSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type AnnouncementsPage = z.input<typeof announcementsPageSchema>;
