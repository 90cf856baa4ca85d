import type { Profile } from './constants';

// SPEC §6: the one table mapping permission keys to profiles. Super users hold every key.
export const permissionTable = {
  'connections-page:addConnection': ['admin'],
  'connections-page:actionButtons': ['admin'],
  'connections-page:editOrDeleteConnection': ['admin'],
  'user-modal:editProfile': ['admin'],
  'user-modal:editQueues': ['admin'],
  'contacts-page:deleteContact': ['admin'],
  'tickets-manager:showall': ['admin'],
  'ticket-options:deleteTicket': ['admin'],
  'dashboard:view': ['admin'],
  'drawer-admin-items:view': ['admin'],
  'tag-form:kanban': ['admin', 'supervisor'],
  // Supervisors too: SPEC §6 gives them the tag form's kanban toggle, so they reach the form.
  'tags:manage': ['admin', 'supervisor'],
  // File lists sit under the drawer's Administration heading.
  'files:manage': ['admin'],
  // The campaigns group of the drawer (contact lists, campaigns, their settings) is the admins'.
  'campaigns:manage': ['admin'],
  // AI agents and the company's AI provider.
  'prompts:manage': ['admin'],
  // Queue integrations (Typebot, n8n, webhooks, Dialogflow).
  'integrations:manage': ['admin'],
  'users:manage': ['admin'],
  'queues:manage': ['admin'],
  'settings:update': ['admin'],
  // The company's audit log (issue 37); super users read the platform's.
  'audit:view': ['admin'],
  // The company's API tokens (issue 38).
  'api-tokens:manage': ['admin'],
  // The company's outbound webhooks and their delivery log (issue 38).
  'webhooks:manage': ['admin'],
  // The company-wide conversation exports (issue 38).
  'exports:manage': ['admin'],
  // The company's knowledge base: documents, sources, the search box (issue 40).
  'knowledge:manage': ['admin'],
  'company:updateSchedules': ['admin'],
} as const satisfies Record<string, readonly Profile[]>;

export type Permission = keyof typeof permissionTable;

export const can = (
  actor: { profile: Profile | string; isSuper?: boolean; super?: boolean } | null | undefined,
  permission: Permission,
): boolean => {
  if (!actor) return false;
  if (actor.isSuper || actor.super) return true;
  return (permissionTable[permission] as readonly string[]).includes(actor.profile);
};
