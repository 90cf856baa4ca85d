import { z } from 'zod';
import type { RouteContract } from './contract';
import { dateTime } from './responses';

// API tokens (issue 38): a company's named keys to its REST API, each limited to scopes (read or
// write per area). A token acts as the admin who made it, within its scopes; shown once, kept hashed.

export const API_TOKEN_PREFIX = 'atd_';

export const apiTokenAreas = [
  'tickets',
  'messages',
  'contacts',
  'campaigns',
  'connections',
  'reports',
] as const;
export type ApiTokenArea = (typeof apiTokenAreas)[number];
// Reports are read only: nothing writes them.
export type ApiTokenScope = Exclude<`${ApiTokenArea}:${'read' | 'write'}`, 'reports:write'>;
export const apiTokenScopes = apiTokenAreas.flatMap((area) =>
  area === 'reports'
    ? [`${area}:read` as const]
    : [`${area}:read` as const, `${area}:write` as const],
);

// The area of each route group a token may reach (by its OpenAPI tag); the others (users, settings,
// queues, billing, the audit log, tokens themselves…) are for people only.
const areaByTag: Record<string, ApiTokenArea> = {
  tickets: 'tickets',
  'ticket-notes': 'tickets',
  tags: 'tickets',
  messages: 'messages',
  schedules: 'messages',
  templates: 'messages',
  contacts: 'contacts',
  'contact lists': 'contacts',
  campaigns: 'campaigns',
  whatsapp: 'connections',
  whatsappsession: 'connections',
  dashboard: 'reports',
};

// The scope an operation needs from a token: reading (GET) or writing (anything else) its area; null
// when tokens cannot call it at all.
export const apiTokenScopeOf = (
  route: Pick<RouteContract, 'tags' | 'method' | 'isPublic'>,
): ApiTokenScope | null => {
  if (route.isPublic) return null;
  const area = route.tags.map((tag) => areaByTag[tag]).find(Boolean);
  if (!area) return null;
  return `${area}:${route.method === 'GET' ? 'read' : 'write'}` as ApiTokenScope;
};

// Writing an area includes reading it.
export const scopesAllow = (granted: readonly string[], needed: ApiTokenScope) =>
  granted.includes(needed) ||
  (needed.endsWith(':read') && granted.includes(needed.replace(/:read$/, ':write')));

export const apiTokenCreateSchema = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z
    .array(z.enum(apiTokenScopes as [ApiTokenScope, ...ApiTokenScope[]]))
    .min(1, 'At least one scope')
    .refine((list) => new Set(list).size === list.length, 'A scope is listed twice'),
  // Optional: the token stops working then.
  expiresAt: z.iso
    .datetime({ offset: true })
    .refine((value) => new Date(value).getTime() > Date.now(), 'A moment in the future')
    .nullable()
    .optional(),
});
export type ApiTokenCreateInput = z.input<typeof apiTokenCreateSchema>;

export const apiTokenSchema = z.object({
  id: z.number(),
  name: z.string(),
  // The token's first characters, to tell tokens apart (the rest is never shown again).
  prefix: z.string(),
  scopes: z.array(z.string()),
  expiresAt: dateTime.nullable(),
  lastUsedAt: dateTime.nullable(),
  createdAt: dateTime,
  // Who made it (the token acts as them): null once they are gone.
  createdBy: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type ApiToken = z.input<typeof apiTokenSchema>;
export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenSchema) });
// The token itself, answered once.
export const apiTokenCreatedSchema = apiTokenSchema.extend({ token: z.string() });
export type ApiTokenCreated = z.input<typeof apiTokenCreatedSchema>;
