import type { RouteContract } from '../contract';
import { queueOptionsContract, queuesContract } from './queues';
import { usersContract } from './users';
import { simulatorContract, whatsappSessionsContract, whatsappsContract } from './whatsapps';
import { systemContract } from './system';
import { authContract } from './auth';

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
];

export const allRoutes = (): RouteContract[] =>
  routeGroups.flatMap((group) => Object.values(group));
