import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authSessionSchema,
  email,
  errorResponseSchema,
  loginSchema,
  messageResponseSchema,
  noContentResponse,
  okResponse,
  resetPasswordParams,
  sessionUserSchema,
} from '@atendi/shared';
import { AppError } from '../../platform/errors';
import { loadSessionUser } from '../users';
import {
  login,
  logout,
  refresh,
  requestPasswordReset,
  resetPassword,
  type SessionResult,
} from './auth.service';

const tags = ['auth'];
export const REFRESH_COOKIE = 'jrt';
// Marks a browser that signed in before: it may still try when its account is under attack.
export const DEVICE_COOKIE = 'jdv';
const DEVICE_COOKIE_SECONDS = 365 * 24 * 3600;

export const authRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();
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

  const sendSession = (reply: FastifyReply, session: SessionResult) => {
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
      ...cookieOptions,
      maxAge: config.refreshTokenTtl,
    });
    const { refreshToken: _hidden, ...body } = session;
    return reply.send(body);
  };

  const publicRoute = { access: { public: true } };
  const session = okResponse(authSessionSchema);

  app.post(
    '/auth/login',
    {
      schema: {
        summary: 'Sign in with email and password; the refresh token comes as a cookie',
        operationId: 'login',
        tags,
        body: loginSchema,
        security: [],
        response: {
          ...session,
          '4xx': errorResponseSchema.extend({ errorMessage: z.string().optional() }),
        },
      },
      config: publicRoute,
      // SPEC §7: a refused login also carries errorMessage (older clients show it on the form).
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
        const body = JSON.parse(payload) as { message?: string };
        return JSON.stringify({ ...body, errorMessage: body.message });
      },
    },
    async (request, reply) => {
      const { device, ...session } = await login(app.deps, request.body, {
        ip: request.ip,
        device: request.cookies[DEVICE_COOKIE],
      });
      reply.setCookie(DEVICE_COOKIE, device, {
        ...cookieOptions,
        path: '/auth/login',
        maxAge: DEVICE_COOKIE_SECONDS,
      });
      return sendSession(reply, session);
    },
  );

  app.post(
    '/auth/refresh_token',
    {
      schema: {
        summary: 'Trade the refresh-token cookie for a new access token',
        operationId: 'refreshSession',
        tags,
        security: [],
        response: session,
      },
      config: publicRoute,
    },
    async (request, reply) => {
      try {
        return sendSession(reply, await refresh(app.deps, request.cookies[REFRESH_COOKIE]));
      } catch (error) {
        if (error instanceof AppError) reply.clearCookie(REFRESH_COOKIE, cookieOptions);
        throw error;
      }
    },
  );

  app.delete(
    '/auth/logout',
    {
      schema: {
        summary: 'End this session',
        operationId: 'logout',
        tags,
        response: noContentResponse,
      },
      config: { access: { allowInactiveCompany: true } },
    },
    async (request, reply) => {
      await logout(app.deps, request.cookies[REFRESH_COOKIE], request.auth.sessionId);
      reply.clearCookie(REFRESH_COOKIE, cookieOptions);
      return reply.status(204).send();
    },
  );

  app.get(
    '/auth/me',
    {
      schema: {
        summary: 'Read the signed-in user with their company, settings and plan',
        operationId: 'getSessionUser',
        tags,
        response: okResponse(sessionUserSchema),
      },
      config: { access: { allowInactiveCompany: true } },
    },
    async (request) => {
      const user = await loadSessionUser(app.deps.db, request.auth.userId);
      if (!user) throw new AppError('ERR_SESSION_EXPIRED');
      return user;
    },
  );

  app.post(
    '/forgetpassword/:email',
    {
      schema: {
        summary: 'Mail a password reset code',
        operationId: 'requestPasswordReset',
        tags,
        params: z.object({ email }),
        security: [],
        response: okResponse(messageResponseSchema),
      },
      config: publicRoute,
    },
    async (request) => {
      await requestPasswordReset(app.deps, request.params.email, request.ip);
      return { message: 'A code was sent to your email' };
    },
  );

  app.post(
    '/resetpasswords/:email/:token/:newPassword',
    {
      schema: {
        summary: 'Set a new password with the mailed code; ends every session',
        operationId: 'resetPassword',
        tags,
        params: resetPasswordParams,
        security: [],
        response: okResponse(messageResponseSchema),
      },
      config: publicRoute,
    },
    async (request) => {
      await resetPassword(app.deps, request.params, request.ip);
      return { message: 'Password updated' };
    },
  );
};
