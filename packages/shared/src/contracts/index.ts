import type { RouteContract } from '../contract';
import { queueOptionsContract, queuesContract } from './queues';
import { usersContract } from './users';
import { simulatorContract, whatsappSessionsContract, whatsappsContract } from './whatsapps';
import { systemContract } from './system';
import { authContract } from './auth';
import { plansContract } from './plans';
import { helpsContract } from './helps';
import { settingsContract } from './settings';
import { companiesContract } from './companies';
import { announcementsContract } from './announcements';
import { planPricesContract, subscriptionsContract } from './subscriptions';
import { dashboardContract } from './dashboard';
import { auditContract } from './audit';
import { ssoContract } from './sso';
import { apiTokensContract } from './api-tokens';
import { webhookEndpointsContract } from './webhook-endpoints';
import { conversationExportsContract } from './conversation-exports';
import { knowledgeContract } from './knowledge';
import { insightContract } from './insight';
import { contactsContract } from './contacts';
import { schedulesContract } from './schedules';
import { quickMessagesContract } from './quick-messages';
import { filesContract } from './files';
import { tagsContract } from './tags';
import { templatesContract } from './templates';
import { messagesContract } from './messages';
import { contactListsContract } from './contact-lists';
import { campaignSettingsContract, campaignsContract } from './campaigns';
import { ticketNotesContract } from './ticket-notes';
import { ticketsContract } from './tickets';
import { aiProviderContract, promptsContract } from './prompts';
import { queueIntegrationsContract } from './queue-integrations';
import { externalApiContract } from './external-api';
import { uploadsContract } from './uploads';
import { webhooksContract } from './webhooks';
import { pushContract } from './push';

export * from './tickets';
export * from './ticket-notes';
export * from './tags';
export * from './webhooks';
export * from './push';
export * from './uploads';
export * from './external-api';
export * from './messages';
export * from './templates';
export * from './queue-integrations';
export * from './prompts';
export * from './campaigns';
export * from './contact-lists';
export * from './files';
export * from './quick-messages';
export * from './schedules';
export * from './contacts';
export * from './dashboard';
export * from './audit';
export * from './sso';
export * from './api-tokens';
export * from './webhook-endpoints';
export * from './conversation-exports';
export * from './knowledge';
export * from './insight';
export * from './subscriptions';
export * from './announcements';
export * from './companies';
export * from './settings';
export * from './helps';
export * from './plans';
export * from './auth';
export * from './system';
export * from './queues';
export * from './users';
export * from './whatsapps';

// Every route group: the API registers each of their routes, and its tests check that nothing else is
// registered (apps/api/test/openapi.test.ts).
export const routeGroups: readonly Readonly<Record<string, RouteContract>>[] = [
  queuesContract,
  queueOptionsContract,
  usersContract,
  whatsappsContract,
  whatsappSessionsContract,
  simulatorContract,
  systemContract,
  authContract,
  plansContract,
  helpsContract,
  settingsContract,
  companiesContract,
  announcementsContract,
  subscriptionsContract,
  planPricesContract,
  dashboardContract,
  auditContract,
  ssoContract,
  apiTokensContract,
  webhookEndpointsContract,
  conversationExportsContract,
  knowledgeContract,
  contactsContract,
  schedulesContract,
  quickMessagesContract,
  filesContract,
  tagsContract,
  templatesContract,
  messagesContract,
  contactListsContract,
  campaignSettingsContract,
  campaignsContract,
  ticketNotesContract,
  ticketsContract,
  promptsContract,
  aiProviderContract,
  insightContract,
  queueIntegrationsContract,
  externalApiContract,
  uploadsContract,
  webhooksContract,
  pushContract,
];

export const allRoutes = (): RouteContract[] =>
  routeGroups.flatMap((group) => Object.values(group));
