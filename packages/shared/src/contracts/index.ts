import type { RouteContract } from '../contract';
import { queueOptionsContract, queuesContract } from './queues';

export * from './queues';

// Every route group: the API registers each of their routes, and its tests check that nothing else is
// registered except the routes listed there as not yet moved here.
export const routeGroups: readonly Readonly<Record<string, RouteContract>>[] = [
  queuesContract,
  queueOptionsContract,
];

export const allRoutes = (): RouteContract[] =>
  routeGroups.flatMap((group) => Object.values(group));
