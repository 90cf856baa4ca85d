import { z } from 'zod';
import { allTicketValues, companyStatuses, presences, profiles, recurrences } from './constants';
import { planViewSchema } from './plans';
import { dateTime } from './responses';
import { settingViewSchema } from './settings';
import { colouredRefSchema } from './tickets';

// SPEC §3 User, as GET /users, /users/{id}, POST, PUT and company-{id}-user answer it.
export const userViewSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(profiles),
  super: z.boolean(),
  allTicket: z.enum(allTicketValues),
  whatsappId: z.number().nullable(),
  // Presence other than offline (SPEC's field).
  online: z.boolean(),
  presence: z.enum(presences),
  // The user's own choice of presence (PUT /presence).
  availability: z.enum(presences),
  // The most open conversations automatic assignment gives them (null: no limit).
  maxTickets: z.number().nullable(),
  // Limits of their own queues (those without one are left out).
  queueLimits: z.array(z.object({ queueId: z.number(), maxTickets: z.number() })),
  queues: z.array(colouredRefSchema),
  queueIds: z.array(z.number()),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type UserView = z.input<typeof userViewSchema>;

export const usersPageSchema = z.object({
  users: z.array(userViewSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type UsersPage = z.input<typeof usersPageSchema>;

// GET /users/list: what the pickers show.
export const userOptionSchema = userViewSchema.pick({
  id: true,
  name: true,
  email: true,
  profile: true,
  online: true,
  presence: true,
});

// PUT /presence and company-{id}-presence: a user's presence as it changed.
export const presenceViewSchema = z.object({
  userId: z.number(),
  presence: z.enum(presences),
  availability: z.enum(presences),
});
export type PresenceView = z.input<typeof presenceViewSchema>;
export type UserOption = z.input<typeof userOptionSchema>;

// GET /auth/me: the user with their default connection and their company's settings and plan.
export const sessionUserSchema = userViewSchema.extend({
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  company: z.object({
    id: z.number(),
    name: z.string(),
    // The effective status: an active company past its due date is overdue.
    status: z.enum(companyStatuses),
    dueDate: dateTime.nullable(),
    recurrence: z.enum(recurrences),
    settings: z.array(settingViewSchema),
    plan: planViewSchema,
  }),
});
export type SessionUser = z.input<typeof sessionUserSchema>;

// POST /auth/login and POST /auth/refresh_token (the refresh token travels as a cookie).
export const authSessionSchema = z.object({
  token: z.string(),
  user: sessionUserSchema,
  companyStatus: z.enum(companyStatuses),
  companyDueDate: dateTime.nullable(),
});
export type AuthSession = z.input<typeof authSessionSchema>;
