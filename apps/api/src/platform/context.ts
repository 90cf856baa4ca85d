import type { ApiTokenScope, Permission, Profile } from '@atendi/shared';

// Who is calling: set once by the auth hook for every private route.
export type AuthContext = {
  userId: number;
  companyId: number;
  profile: Profile;
  isSuper: boolean;
  sessionId: string;
  // The client address the request came from (the audit log's "from where").
  address?: string;
  // The queues the caller works in, read with the principal (ticket visibility needs them on most
  // requests; absent where a context is built by hand).
  queueIds?: readonly number[];
  // Set when the caller is an API token (issue 38): it acts as its maker, within its scopes.
  apiTokenId?: number;
};

export type PlanFeature =
  | 'useCampaigns'
  | 'useKanban'
  | 'useOpenAi'
  | 'useIntegrations'
  | 'useSchedules'
  | 'useExternalApi';

// What a route declares about its access; the auth hook enforces it.
export type RouteAccess = {
  // No session needed (login, sign-up, public plan list, version, webhooks).
  public?: boolean;
  permission?: Permission;
  superOnly?: boolean;
  // Reachable while the company is not active (SPEC §2 gate: auth, plans, subscriptions, announcements).
  allowInactiveCompany?: boolean;
  planFeature?: PlanFeature;
};

/* eslint-disable @typescript-eslint/consistent-type-definitions -- module augmentation needs interfaces */
declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
    // The scope an API token needs for the route (issue 38); none: tokens cannot call it.
    apiScope?: ApiTokenScope | null;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */
