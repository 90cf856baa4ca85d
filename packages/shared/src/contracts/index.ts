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
import { contactsContract } from './contacts';
import { schedulesContract } from './schedules';
import { quickMessagesContract } from './quick-messages';
import { filesContract } from './files';
import { templatesContract } from './templates';
import { messagesContract } from './messages';
import { externalApiContract } from './external-api';
import { uploadsContract } from './uploads';
import { webhooksContract } from './webhooks';

export * from './webhooks';
export * from './uploads';
export * from './external-api';
export * from './messages';
export * from './templates';
export * from './files';
export * from './quick-messages';
export * from './schedules';
export * from './contacts';
export * from './dashboard';
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
// registered except the routes listed there as not yet moved here.
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
  contactsContract,
  schedulesContract,
  quickMessagesContract,
  filesContract,
  templatesContract,
  messagesContract,
  externalApiContract,
  uploadsContract,
  webhooksContract,
];

export const allRoutes = (): RouteContract[] =>
  routeGroups.flatMap((group) => Object.values(group));
