import { disconnectSocket } from '../../api/socket';
import type { LoginInput, SignupInput } from '@atendi/shared';
import {
  authContract,
  canonicalTimeZone,
  companiesContract,
  SIGNUP_DEFAULTS,
} from '@atendi/shared';
import { ApiError, call, NETWORK_ERROR, refreshSession } from '../../api/http-client';
import { disablePush } from '../../api/push';
import {
  clearSession,
  getToken,
  homePathFor,
  setSession,
  type AuthResponse,
  type SessionUser,
} from '../../api/session';
import { showOfflinePage } from '../../lib/browser';
import { readStorage, storageKeys, writeStorage } from '../../lib/storage';
import { warnIfDueSoon } from './due-date-warning';

const DAY_MS = 24 * 60 * 60 * 1000;

// Mirrors the original client: campaign routes appear once the company may run campaigns.
const rememberCampaignFlag = (user: SessionUser) => {
  const enabledBySetting = user.company?.settings?.some(
    (setting) => setting.key === 'campaignsEnabled' && setting.value === 'true',
  );
  if (enabledBySetting || user.company?.plan?.useCampaigns) {
    writeStorage(storageKeys.campaignFlag, 'true');
  }
};

const startSession = (auth: AuthResponse, afterLogin: string | null) => {
  rememberCampaignFlag(auth.user);
  setSession(auth, afterLogin);
  warnIfDueSoon(auth.companyDueDate ?? auth.user.company?.dueDate, auth.companyStatus);
};

// `landing`: where the app opens instead of the profile's home (a new company's checklist). An
// account with a second factor answers the step to take instead (no session yet).
export const login = async (input: LoginInput, landing?: string) => {
  const result = await call(authContract.login, { body: input });
  if ('twoFactor' in result) return result;
  startSession(result, landing ?? homePathFor(result));
  return result;
};

// Issue 37: the second step of a sign-in (the app's code or a recovery code), or the enrolment of
// the second factor the company requires (its secret, then its first code: the recovery codes come
// with the session, which starts once they have been seen).
export const finishTwoFactor = async (challenge: string, code: string) => {
  const auth = await call(authContract.loginTwoFactor, { body: { challenge, code } });
  startSession(auth, homePathFor(auth));
};
export const startLoginEnrolment = (challenge: string) =>
  call(authContract.loginTwoFactorSetup, { body: { challenge } });
export const confirmLoginEnrolment = (challenge: string, code: string) =>
  call(authContract.loginTwoFactorEnroll, { body: { challenge, code } });
export const enterAfterEnrolment = (auth: AuthResponse) => startSession(auth, homePathFor(auth));

// App start: the httpOnly refresh cookie restores the session; failing that, a stored token.
// A single sign-on that went well comes back to /login?sso=done with the refresh cookie: it lands
// where a login does.
const isSsoLanding = () =>
  window.location.pathname === '/login' &&
  new URLSearchParams(window.location.search).get('sso') === 'done';

export const restoreSession = async () => {
  // Read before the refresh: the session it publishes may already move the page on.
  const landing = isSsoLanding() ? homePathFor : () => null;
  try {
    const auth = await refreshSession(landing);
    startSession(auth, landing(auth));
    return;
  } catch (error) {
    // The API cannot be reached (no network, or the server is down): the offline page says so and
    // retries, rather than the login page, whose sign-in would fail the same way.
    if (error instanceof ApiError && error.code === NETWORK_ERROR) return showOfflinePage();
    // Otherwise fall through to the stored token.
  }
  const token = readStorage(storageKeys.token);
  if (token) {
    try {
      const user = await call(authContract.getSessionUser, undefined, {
        skipAuth: true,
        headers: { Authorization: `Bearer ${token}` },
      });
      startSession(
        { token, user, companyStatus: user.company.status, companyDueDate: user.company.dueDate },
        null,
      );
      return;
    } catch {
      // The stored token is no good either.
    }
  }
  clearSession();
};

export const logout = async () => {
  // Our own logout ends the session on the server, which drops its sockets: leave first, so the
  // socket does not take the drop for a lost session and reload the page.
  disconnectSocket();
  try {
    // This browser's pushes were the user's: they stop with the session (the next user turns theirs
    // on). Best effort: a failure here never keeps anyone signed in.
    if (getToken()) await disablePush().catch(() => undefined);
    if (getToken()) await call(authContract.logout);
  } catch {
    // Logging out locally matters more than telling the server.
  } finally {
    clearSession();
  }
};

type SignupForm = Pick<SignupInput, 'name' | 'email' | 'phone' | 'password'> & {
  planId: number;
  // The optional ?companyId of the sign-up link, passed along for the server to use or ignore.
  companyId?: number;
};

// The browser's time zone, when it is one the server can know (the company's until an admin changes it).
const browserTimeZone = () =>
  canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? '');

// SPEC §3/§9: the sign-up payload carries the original client's defaults; the server decides.
export const signup = (form: SignupForm) =>
  call(companiesContract.signUp, {
    body: {
      ...form,
      timeZone: browserTimeZone(),
      recurrence: SIGNUP_DEFAULTS.recurrence,
      status: SIGNUP_DEFAULTS.status,
      campaignsEnabled: SIGNUP_DEFAULTS.campaignsEnabled,
      dueDate: new Date(Date.now() + SIGNUP_DEFAULTS.trialDays * DAY_MS).toISOString(),
    },
  });

export const requestPasswordReset = (email: string) =>
  call(authContract.requestPasswordReset, { params: { email } });

export const resetPassword = (email: string, token: string, newPassword: string) =>
  call(authContract.resetPassword, { params: { email, token, newPassword } });
