import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authContract as auth, ssoContract as sso, usersContract } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { AppError } from '../../platform/errors';
import { loadSessionUser } from '../users';
import {
  login,
  logout,
  refresh,
  requestPasswordReset,
  resetPassword,
  startSession,
  type SessionResult,
  type SignedIn,
} from './auth.service';
import {
  challengeSetup,
  disableTwoFactor,
  enableTwoFactor,
  resetTwoFactor,
  enrollChallenge,
  setupTwoFactor,
  twoFactorStatus,
  verifyChallenge,
} from './two-factor';
import { deleteSso, finishSso, getSsoSettings, startSso, updateSso } from './sso';
import { discoverSso } from './sso-policy';
import { endOwnOtherSessions, endOwnSession, endUserSessions, listSessions } from './sessions';

const REFRESH_COOKIE = 'jrt';
// Marks a browser that signed in before: it may still try when its account is under attack.
const DEVICE_COOKIE = 'jdv';
const DEVICE_COOKIE_SECONDS = 365 * 24 * 3600;
// The browser's own id (issue 41): a company that keeps one session per device ends the earlier
// session of the browser that signs in again, and no other.
const DEVICE_ID_COOKIE = 'jdi';
// Binds a single sign-on round trip to the browser that started it.
const SSO_COOKIE = 'jss';

export const authRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const { config } = app.deps;
  const secure = config.publicApiUrl.startsWith('https://');
  // Different sites (production on two domains) need SameSite=None, which browsers allow only over HTTPS.
  const crossSite =
    secure && new URL(config.publicApiUrl).hostname !== new URL(config.publicWebUrl).hostname;
  const cookieOptions = {
    httpOnly: true,
    secure,
    sameSite: crossSite ? ('none' as const) : ('lax' as const),
    path: '/auth',
  };

  // Who signs in: the address and the browser's name of itself (their sessions list shows both).
  const clientOf = (request: FastifyRequest) => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    deviceId: request.cookies[DEVICE_ID_COOKIE],
  });

  const setRefreshCookie = (reply: FastifyReply, refreshToken: string) =>
    reply.setCookie(REFRESH_COOKIE, refreshToken, {
      ...cookieOptions,
      maxAge: config.refreshTokenTtl,
    });
  // A finished sign-in's browser cookies: this browser signed in (the login limiter's), and its id.
  const setDeviceCookies = (
    reply: FastifyReply,
    { device, deviceId }: Pick<SignedIn, 'device' | 'deviceId'>,
  ) => {
    reply.setCookie(DEVICE_COOKIE, device, {
      ...cookieOptions,
      path: '/auth/login',
      maxAge: DEVICE_COOKIE_SECONDS,
    });
    reply.setCookie(DEVICE_ID_COOKIE, deviceId, {
      ...cookieOptions,
      maxAge: DEVICE_COOKIE_SECONDS,
    });
  };

  const sendSession = (reply: FastifyReply, session: SessionResult & Record<string, unknown>) => {
    setRefreshCookie(reply, session.refreshToken);
    const { refreshToken: _hidden, ...body } = session;
    return reply.send(body);
  };

  route(
    auth.login,
    {
      // SPEC §7: a refused login also carries errorMessage (older clients show it on the form).
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
        const body = JSON.parse(payload) as { message?: string };
        return JSON.stringify({ ...body, errorMessage: body.message });
      },
    },
    async (request, reply) => {
      const result = await login(app.deps, request.body, {
        ...clientOf(request),
        device: request.cookies[DEVICE_COOKIE],
      });
      // A second step to go: no cookie yet.
      if ('twoFactor' in result) return result;
      return sendSignedIn(reply, result);
    },
  );

  // A finished sign-in: the device cookies and the session.
  const sendSignedIn = (
    reply: FastifyReply,
    { device, deviceId, ...session }: SignedIn,
    extra: Record<string, unknown> = {},
  ) => {
    setDeviceCookies(reply, { device, deviceId });
    return sendSession(reply, { ...session, ...extra });
  };

  // Issue 37: the second step of a sign-in, and the signed-in user's own second factor.
  route(auth.loginTwoFactor, async (request, reply) => {
    const user = await verifyChallenge(
      app.deps,
      request.body.challenge,
      request.body.code,
      request.ip,
    );
    return sendSignedIn(reply, await startSession(app.deps, user, clientOf(request), 'totp'));
  });
  route(auth.loginTwoFactorSetup, async (request) =>
    challengeSetup(app.deps, request.body.challenge),
  );
  route(auth.loginTwoFactorEnroll, async (request, reply) => {
    const { user, recoveryCodes } = await enrollChallenge(
      app.deps,
      request.body.challenge,
      request.body.code,
      request.ip,
    );
    return sendSignedIn(reply, await startSession(app.deps, user, clientOf(request), 'enrolment'), {
      recoveryCodes,
    });
  });

  // Issue 37: single sign-on. The browser goes to the provider and comes back to the callback,
  // which signs it in (the session cookie) and sends it on to the web app (its login page with
  // ?sso=done, which lands where a login does), or to its login page with ?ssoError=CODE. The round trip is bound to the browser by a cookie of its own.
  const ssoCookie = { ...cookieOptions, path: '/auth/sso', sameSite: 'lax' as const };
  const toLoginPage = (reply: FastifyReply, request: FastifyRequest, error: unknown) => {
    if (!(error instanceof AppError) || error.status >= 500)
      request.log.warn({ err: error }, 'single sign-on failed');
    const code = error instanceof AppError ? error.code : 'ERR_INTERNAL_SERVER_ERROR';
    return reply.redirect(`${config.publicWebUrl}/login?ssoError=${code}`, 302);
  };
  route(sso.discoverSso, async (request) => discoverSso(app.deps.db, request.query.email));
  route(sso.startSso, async (request, reply) => {
    try {
      const started = await startSso(app.deps, request.query.email, request.ip);
      reply.setCookie(SSO_COOKIE, started.browser, {
        ...ssoCookie,
        maxAge: started.maxAgeSeconds,
      });
      return reply.redirect(started.url, 302);
    } catch (error) {
      return toLoginPage(reply, request, error);
    }
  });
  route(sso.finishSso, async (request, reply) => {
    const browser = request.cookies[SSO_COOKIE];
    reply.clearCookie(SSO_COOKIE, ssoCookie);
    try {
      const { device, deviceId, ...session } = await finishSso(
        app.deps,
        {
          search: request.url.slice(request.url.indexOf('?') + 1),
          state: request.query.state,
          error: request.query.error,
          errorDescription: request.query.error_description,
        },
        browser,
        clientOf(request),
      );
      setDeviceCookies(reply, { device, deviceId });
      setRefreshCookie(reply, session.refreshToken);
      return reply.redirect(`${config.publicWebUrl}/login?sso=done`, 302);
    } catch (error) {
      return toLoginPage(reply, request, error);
    }
  });
  route(sso.getSso, { access: { permission: 'settings:update' } }, async (request) =>
    getSsoSettings(app.deps, request.auth, request.params.id),
  );
  route(sso.updateSso, { access: { permission: 'settings:update' } }, async (request) =>
    updateSso(app.deps, request.auth, request.params.id, request.body),
  );
  route(sso.deleteSso, { access: { permission: 'settings:update' } }, async (request) => {
    await deleteSso(app.deps, request.auth, request.params.id);
  });

  route(auth.refreshSession, async (request, reply) => {
    try {
      return sendSession(
        reply,
        await refresh(app.deps, request.cookies[REFRESH_COOKIE], clientOf(request)),
      );
    } catch (error) {
      if (error instanceof AppError) reply.clearCookie(REFRESH_COOKIE, cookieOptions);
      throw error;
    }
  });

  const reachable = { access: { allowInactiveCompany: true } };
  route(auth.logout, reachable, async (request, reply) => {
    await logout(app.deps, request.cookies[REFRESH_COOKIE], request.auth.sessionId);
    reply.clearCookie(REFRESH_COOKIE, cookieOptions);
  });

  route(auth.getTwoFactor, async (request) => twoFactorStatus(app.deps, request.auth.userId));
  route(auth.setupTwoFactor, async (request) => setupTwoFactor(app.deps, request.auth.userId));
  route(auth.enableTwoFactor, async (request) =>
    enableTwoFactor(app.deps, request.auth, request.body.code),
  );
  route(auth.disableTwoFactor, async (request) => {
    await disableTwoFactor(app.deps, request.auth, request.body);
  });

  route(auth.listSessions, async (request) => listSessions(app.deps.db, request.auth));
  route(auth.endSession, async (request) => {
    await endOwnSession(app.deps, request.auth, request.params.id);
  });
  route(auth.endOtherSessions, async (request) => {
    await endOwnOtherSessions(app.deps, request.auth);
  });
  route(
    usersContract.endUserSessions,
    { access: { permission: 'users:manage' } },
    async (request) => {
      await endUserSessions(app.deps, request.auth, request.params.id);
    },
  );

  route(usersContract.resetTwoFactor, { access: { superOnly: true } }, async (request) => {
    await resetTwoFactor(app.deps.db, request.auth, request.params.id);
  });

  route(auth.getSessionUser, reachable, async (request) => {
    const user = await loadSessionUser(app.deps, request.auth.userId);
    if (!user) throw new AppError('ERR_SESSION_EXPIRED');
    return user;
  });

  route(auth.requestPasswordReset, async (request) => {
    await requestPasswordReset(app.deps, request.params.email, request.ip);
    return { message: 'A code was sent to your email' };
  });

  route(auth.resetPassword, async (request) => {
    await resetPassword(app.deps, request.params, request.ip);
    return { message: 'Password updated' };
  });
};
