import { vi } from 'vitest';
import {
  companyViewSchema,
  subscriptionsOverviewSchema,
  templateParamNames,
  templateViewSchema,
  type CompanyView,
  type InvoiceView,
  type SubscriptionView,
  type TemplateView,
} from '@atendi/shared';
import type { AuthResponse, Plan, SessionUser } from '../api/session';

const DAY_MS = 24 * 60 * 60 * 1000;

export const makePlan = (overrides: Partial<Plan> = {}): Plan => ({
  id: 1,
  name: 'Plus',
  users: 2,
  connections: 1,
  queues: 8,
  aiAgents: 1,
  aiMessages: 2000,
  aiTokens: 2_000_000,
  value: 99,
  useCampaigns: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useSchedules: true,
  useExternalApi: true,
  storageMb: 20480,
  stripePriceId: null,
  currency: 'usd',
  ...overrides,
});

type AuthOverrides = {
  user?: Partial<Omit<SessionUser, 'company'>>;
  plan?: Partial<Plan>;
  settings?: SessionUser['company']['settings'];
  companyStatus?: AuthResponse['companyStatus'];
  companyDueDate?: string | null;
  token?: string;
};

// A base64url JWT-shaped token; only its payload matters to the client.
export const makeToken = (payload: Record<string, unknown> = { sid: 'session-1', id: 1 }) => {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;
};

export const makeAuth = (overrides: AuthOverrides = {}): AuthResponse => {
  const companyStatus = overrides.companyStatus ?? 'active';
  const companyDueDate =
    overrides.companyDueDate === undefined
      ? new Date(Date.now() + 30 * DAY_MS).toISOString()
      : overrides.companyDueDate;
  return {
    token: overrides.token ?? makeToken(),
    companyStatus,
    companyDueDate,
    user: {
      id: 1,
      name: 'Ana Admin',
      email: 'ana@example.com',
      profile: 'admin',
      super: false,
      companyId: 1,
      allTicket: 'desabled',
      whatsappId: null,
      whatsapp: null,
      online: true,
      presence: 'online',
      availability: 'online',
      maxTickets: null,
      queueLimits: [],
      queues: overrides.user?.queues ?? [],
      queueIds: (overrides.user?.queues ?? []).map((queue) => queue.id),
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      ...overrides.user,
      company: {
        id: 1,
        name: 'Acme',
        status: companyStatus,
        dueDate: companyDueDate,
        recurrence: 'MENSAL',
        settings: overrides.settings ?? [],
        plan: makePlan(overrides.plan),
      },
    },
  };
};

export const jsonResponse = (
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

type Route = (init: RequestInit & { url: URL }) => Response | Promise<Response>;

// Stubs fetch with a table of "METHOD /path" handlers; anything else answers 404.
export const mockApi = (routes: Record<string, Route>) => {
  const fetchMock = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    const route = routes[key];
    if (!route) return jsonResponse(404, { error: 'ERR_NOT_FOUND', message: `No mock for ${key}` });
    return route({ ...init, url });
  };
  return fetchMock;
};

// What the shell asks for on every page.
const shellRoutes: Record<string, Route> = {
  'GET /version': () => jsonResponse(200, { version: '1.0.0' }),
  'GET /settings/': () => jsonResponse(200, []),
  // The drawer's connections badge (admins).
  'GET /whatsapp': () => jsonResponse(200, []),
};

// Stubs fetch with the shell's routes and the given ones; returns the mock to inspect.
export const stubApi = (routes: Record<string, Route>) => {
  const fetchMock = vi.fn(mockApi({ ...shellRoutes, ...routes }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
};

// Every request made so far as "METHOD /path?query", in order.
export const callsOf = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.map(([url, init]) => {
    const parsed = new URL(String(url));
    return `${init?.method ?? 'GET'} ${parsed.pathname}${parsed.search}`;
  });

export const makeSubscription = (overrides: Partial<SubscriptionView> = {}): SubscriptionView => ({
  id: 1,
  companyId: 1,
  plan: { id: 1, name: 'Plus' },
  status: 'active',
  providerStatus: overrides.status ?? 'active',
  startDate: '2025-03-10T12:00:00.000Z',
  currentPeriodEnd: '2025-04-10T12:00:00.000Z',
  cancelAtPeriodEnd: false,
  createdAt: '2025-03-10T12:00:00.000Z',
  updatedAt: '2025-03-10T12:00:00.000Z',
  ...overrides,
});

export const makeInvoice = (overrides: Partial<InvoiceView> = {}): InvoiceView => ({
  id: 1,
  companyId: 1,
  subscriptionId: 1,
  value: 39,
  currency: 'usd',
  dueDate: '2025-03-10T12:00:00.000Z',
  status: 'paid',
  paidAt: '2025-03-10T12:05:00.000Z',
  hostedInvoiceUrl: 'https://invoice.stripe.com/i/acct_1/inv_1',
  createdAt: '2025-03-10T12:00:00.000Z',
  ...overrides,
});

// GET /subscriptions, checked against the shared schema so a fixture is always a possible answer.
export const subscriptionsOverview = ({
  paymentsConfigured = true,
  subscriptions = [],
  invoices = [],
}: {
  paymentsConfigured?: boolean;
  subscriptions?: SubscriptionView[];
  invoices?: InvoiceView[];
} = {}) => {
  const body = { paymentsConfigured, subscriptions, invoices };
  subscriptionsOverviewSchema.parse(body);
  return jsonResponse(200, body);
};

// A company as GET /companies and the company-{id}-company event carry it.
export const makeCompanyView = (overrides: Partial<CompanyView> = {}): CompanyView => {
  const company: CompanyView = {
    id: 1,
    name: 'Acme',
    email: 'boss@acme.com',
    phone: '5215512345678',
    planId: 1,
    plan: { id: 1, name: 'Plus' },
    status: 'active',
    effectiveStatus: 'active',
    dueDate: '2030-03-15T12:00:00.000Z',
    recurrence: 'MENSAL',
    campaignsEnabled: false,
    schedules: [],
    timeZone: 'America/Mexico_City',
    storageUsed: 0,
    storageLimit: 20480 * 1024 * 1024,
    aiUsage: {
      month: '2030-03',
      messages: 0,
      agents: 0,
      exhaustedAgents: 0,
      agentsLimit: 1,
      messagesLimit: 2000,
      tokens: 0,
      tokensLimit: 2_000_000,
      tokensByFeature: [],
    },
    createdAt: '2024-01-02T12:00:00.000Z',
    updatedAt: '2024-01-02T12:00:00.000Z',
    ...overrides,
  };
  companyViewSchema.parse(company);
  return company;
};

// A Cloud API message template as GET /whatsapp/{id}/templates lists it; its parameters are read from
// its texts, as the API does, and the whole is checked against the shared schema.
export const makeTemplate = (overrides: Partial<TemplateView> = {}): TemplateView => {
  const base = {
    id: 1,
    whatsappId: 4,
    name: 'bienvenida',
    language: 'es_MX',
    status: 'APPROVED',
    category: 'MARKETING',
    headerFormat: null,
    headerText: '',
    bodyText: 'Hola {{1}}, su pedido {{2}} está listo.',
    footerText: '',
    buttons: [],
    updatedAt: '2025-03-04T09:05:00.000Z',
    ...overrides,
  };
  const template: TemplateView = {
    headerParams: templateParamNames(base.headerText),
    bodyParams: templateParamNames(base.bodyText),
    ...base,
  };
  templateViewSchema.parse(template);
  return template;
};

export const templateListOf = (templates: TemplateView[], syncedAt: string | null = null) =>
  jsonResponse(200, { templates, syncedAt });
