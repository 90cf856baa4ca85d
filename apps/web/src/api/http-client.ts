import {
  authContract,
  routePath,
  type CompanyStatus,
  type RouteContract,
  type RouteInput,
  type RouteResponse,
} from '@atendi/shared';
import {
  clearSession,
  getSessionState,
  getToken,
  isCompanyActive,
  setSession,
  updateSessionCompany,
  type AuthResponse,
} from './session';
import { getApiUrl } from './runtime-config';

type QueryValue = string | number | boolean | null | undefined;

type RequestOptions = {
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  // Public and session calls (login, refresh, sign-up): no token, no refresh-and-retry, no logout.
  skipAuth?: boolean;
};

type CallOptions = Pick<RequestOptions, 'headers' | 'signal' | 'skipAuth'>;

type ErrorInit = {
  status: number;
  code?: string;
  message: string;
  fields?: Record<string, string[]>;
  details?: Record<string, unknown>;
  retryAfter?: number;
};

export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;
  readonly fields?: Record<string, string[]>;
  // What the API adds to explain a refusal (e.g. who holds the other open ticket).
  readonly details?: Record<string, unknown>;
  // Seconds, from the Retry-After header of a 429.
  readonly retryAfter?: number;

  constructor({ status, code, message, fields, details, retryAfter }: ErrorInit) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.details = details;
    this.retryAfter = retryAfter;
  }
}

export const NETWORK_ERROR = 'ERR_NETWORK';

const buildUrl = (path: string, query?: Record<string, QueryValue>) => {
  const url = new URL(`${getApiUrl()}${path.startsWith('/') ? path : `/${path}`}`);
  Object.entries(query ?? {}).forEach(([key, value]) => {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  });
  return url.toString();
};

const isRawBody = (body: unknown): body is BodyInit =>
  body instanceof FormData ||
  body instanceof Blob ||
  body instanceof URLSearchParams ||
  typeof body === 'string';

const send = async (
  method: string,
  path: string,
  options: RequestOptions,
  token: string | null,
): Promise<Response> => {
  const headers = new Headers(options.headers);
  headers.set('Accept', 'application/json');
  let body: BodyInit | undefined;
  if (isRawBody(options.body)) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  if (token) headers.set('Authorization', `Bearer ${token}`);
  try {
    return await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, code: NETWORK_ERROR, message: 'Network error' });
  }
};

// Content types read as text (JSON, CSV, plain text); any other one (a PDF, a ZIP, JSON Lines) is a
// file, kept as bytes.
const isTextType = (type: string) =>
  !type || /^application\/([\w.-]+\+)?json$|^text\/|xml|csv/i.test(type);

const readBody = async (response: Response): Promise<unknown> => {
  if (response.status === 204) return undefined;
  const type = (response.headers.get('Content-Type') ?? '').split(';')[0].trim();
  if (response.ok && !isTextType(type)) {
    return new Blob([await response.arrayBuffer()], { type });
  }
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const errorCodeOf = (body: unknown) =>
  body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
    ? (body as { error: string }).error
    : undefined;

const parseRetryAfter = (header: string | null) => {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
};

const toApiError = (response: Response, body: unknown) => {
  const data = (body && typeof body === 'object' ? body : {}) as {
    message?: unknown;
    errorMessage?: unknown;
    fields?: Record<string, string[]>;
    details?: Record<string, unknown>;
  };
  const text = typeof body === 'string' ? body : undefined;
  const message =
    (typeof data.message === 'string' && data.message) ||
    (typeof data.errorMessage === 'string' && data.errorMessage) ||
    text ||
    response.statusText ||
    `HTTP ${response.status}`;
  return new ApiError({
    status: response.status,
    code: errorCodeOf(body),
    message,
    fields: data.fields,
    details: data.details,
    retryAfter: parseRetryAfter(response.headers.get('Retry-After')),
  });
};

const isInvalidToken = (response: Response, body: unknown) =>
  response.status === 403 && errorCodeOf(body) === 'ERR_INVALID_TOKEN';

let refreshInFlight: Promise<AuthResponse> | null = null;

const requestRefresh = async (): Promise<AuthResponse> => {
  const { method, path } = authContract.refreshSession;
  const response = await send(method, path, {}, null);
  const body = await readBody(response);
  if (!response.ok) throw toApiError(response, body);
  return body as AuthResponse;
};

// One refresh at a time: every caller that needs a new token shares the same promise.
// `landing`: where a public page sends the restored session, set together with it (the app start
// after a single sign-on); otherwise the current one stays.
export const refreshSession = (
  landing?: (auth: AuthResponse) => string | null,
): Promise<AuthResponse> => {
  if (!refreshInFlight) {
    refreshInFlight = requestRefresh()
      .then((auth) => {
        setSession(auth, landing?.(auth));
        return auth;
      })
      .finally(() => {
        refreshInFlight = null;
      });
  }
  return refreshInFlight;
};

const renewToken = async (staleToken: string | null) => {
  const current = getToken();
  // A refresh may have finished while this request was in flight: reuse its token.
  if (current && current !== staleToken && !refreshInFlight) return current;
  return (await refreshSession()).token;
};

const isCompanyInactive = (response: Response, body: unknown) =>
  response.status === 403 && errorCodeOf(body) === 'ERR_COMPANY_INACTIVE';

const SESSION_USER_PATH = authContract.getSessionUser.path;
let inactiveSync: Promise<void> | null = null;

// A call refused with ERR_COMPANY_INACTIVE: the company stopped being active since the session
// began (due date passed, suspended). The gate sends the user to /restricted-access at once; the
// session then reads the company's real status.
const onCompanyInactive = () => {
  const session = getSessionState().session;
  if (!session) return;
  if (isCompanyActive(session)) updateSessionCompany({ companyStatus: 'overdue' });
  // Several calls refused together read the session once.
  inactiveSync ??= syncSessionCompany()
    .catch(() => undefined)
    .finally(() => {
      inactiveSync = null;
    });
};

export const request = async <T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<T> => {
  if (options.skipAuth) {
    const response = await send(method, path, options, null);
    const body = await readBody(response);
    if (!response.ok) throw toApiError(response, body);
    return body as T;
  }

  const token = getToken();
  let response = await send(method, path, options, token);
  let body = await readBody(response);

  if (isInvalidToken(response, body)) {
    let freshToken: string;
    try {
      freshToken = await renewToken(token);
    } catch (error) {
      // A refresh that could not reach the server says nothing about the session.
      if (!(error instanceof ApiError && error.code === NETWORK_ERROR)) clearSession();
      throw error;
    }
    response = await send(method, path, options, freshToken);
    body = await readBody(response);
    if (isInvalidToken(response, body)) clearSession();
  }
  if (response.status === 401) clearSession();
  if (isCompanyInactive(response, body) && path !== SESSION_USER_PATH) onCompanyInactive();

  if (!response.ok) throw toApiError(response, body);
  return body as T;
};

// Calls a route through its contract (packages/shared/src/contracts): the path, query and body it
// takes and the answer it gives are the route's own types. Routes callable without a session
// (isPublic) go without a token, refresh or sign-out.
export const call = <Route extends RouteContract>(
  route: Route,
  ...[input, options]: object extends RouteInput<Route>
    ? [input?: RouteInput<Route>, options?: CallOptions]
    : [input: RouteInput<Route>, options?: CallOptions]
): Promise<RouteResponse<Route>> => {
  const { params, query, body } = (input ?? {}) as {
    params?: object;
    query?: RequestOptions['query'];
    body?: unknown;
  };
  return request<RouteResponse<Route>>(route.method, routePath(route, params), {
    ...options,
    query,
    body,
    skipAuth: options?.skipAuth ?? route.isPublic,
  });
};

// Each company sync takes a number; only the newest one applies what GET /auth/me answers.
let companySyncs = 0;

// GET /auth/me again, keeping the token: the company's status, due date and plan as the server has
// them now. A live company event knows the status the gate applies (`effectiveStatus`) and the due
// date: they are applied at once and kept over the answer, which brings the rest (plan, settings).
export const syncSessionCompany = async (known?: {
  status: CompanyStatus;
  dueDate: string | null;
}) => {
  const sync = ++companySyncs;
  const userId = getSessionState().session?.user.id;
  if (userId === undefined) return;
  const knownPatch = known ? { companyStatus: known.status, companyDueDate: known.dueDate } : {};
  if (known) updateSessionCompany(knownPatch);
  const user = await call(authContract.getSessionUser);
  if (sync !== companySyncs || getSessionState().session?.user.id !== userId) return;
  updateSessionCompany({ user, ...knownPatch });
};
