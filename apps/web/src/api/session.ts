import { useSyncExternalStore } from 'react';
import type {
  AuthSession,
  CompanyStatus,
  PlanView,
  SessionUser as SharedSessionUser,
  SettingView,
} from '@atendi/shared';
import { readStorage, removeStorage, storageKeys, writeStorage } from '../lib/storage';

export type Plan = PlanView;

export type PlanFeature = keyof Pick<
  Plan,
  'useCampaigns' | 'useKanban' | 'useOpenAi' | 'useIntegrations' | 'useSchedules' | 'useExternalApi'
>;

export type CompanySetting = SettingView;

// GET /auth/me answers the user; POST /auth/login and POST /auth/refresh_token answer the session.
export type SessionUser = SharedSessionUser;
export type AuthResponse = AuthSession;

type Session = AuthResponse;

type SessionState = {
  status: 'loading' | 'anonymous' | 'authenticated';
  session: Session | null;
  // Where a public page sends the user right after an explicit login (SPEC §2 "After login").
  afterLogin: string | null;
};

let state: SessionState = { status: 'loading', session: null, afterLogin: null };
const listeners = new Set<() => void>();

const update = (next: SessionState) => {
  state = next;
  listeners.forEach((listener) => listener());
};

export const subscribeSession = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export const getSessionState = () => state;

export const useSession = () => useSyncExternalStore(subscribeSession, getSessionState);

// For components rendered only behind the login guard.
export const useCurrentSession = (): Session => {
  const { session } = useSession();
  if (!session) throw new Error('useCurrentSession needs an authenticated session');
  return session;
};

export const getToken = () => state.session?.token ?? readStorage(storageKeys.token);

export const setSession = (auth: AuthResponse, afterLogin: string | null = state.afterLogin) => {
  writeStorage(storageKeys.token, auth.token);
  update({ status: 'authenticated', session: { ...auth }, afterLogin });
};

export const updateSessionUser = (
  patch: Partial<Pick<SessionUser, 'name' | 'email' | 'presence' | 'availability' | 'online'>>,
) => {
  if (!state.session) return;
  update({ ...state, session: { ...state.session, user: { ...state.session.user, ...patch } } });
};

type SessionCompanyPatch = {
  companyStatus?: CompanyStatus;
  companyDueDate?: string | null;
  // GET /auth/me's answer: the user with the company and plan as they are now.
  user?: SessionUser;
};

// A live company change or a refused call moves the company-status gate without a new login; the
// token stays. The user's company copy follows, so every reader sees one status and due date.
export const updateSessionCompany = (patch: SessionCompanyPatch) => {
  const current = state.session;
  if (!current) return;
  const user = patch.user ?? current.user;
  const companyStatus = patch.companyStatus ?? patch.user?.company.status ?? current.companyStatus;
  const companyDueDate =
    patch.companyDueDate !== undefined
      ? patch.companyDueDate
      : patch.user
        ? patch.user.company.dueDate
        : current.companyDueDate;
  setSession({
    ...current,
    user: { ...user, company: { ...user.company, status: companyStatus, dueDate: companyDueDate } },
    companyStatus,
    companyDueDate,
  });
};

// Once the user is inside the app, a later visit to a public page goes to / (SPEC §2).
export const clearAfterLogin = () => {
  if (state.afterLogin !== null) update({ ...state, afterLogin: null });
};

export const clearSession = () => {
  removeStorage(storageKeys.token);
  update({ status: 'anonymous', session: null, afterLogin: null });
};

export const isCompanyActive = (session: Pick<Session, 'companyStatus'>) =>
  session.companyStatus === 'active';

export const homePathFor = (session: Pick<Session, 'companyStatus'>) =>
  isCompanyActive(session) ? '/tickets' : '/subscriptions';
