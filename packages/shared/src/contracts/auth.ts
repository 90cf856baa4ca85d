import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  errorResponseSchema,
  messageResponseSchema,
  noContentResponse,
  okResponse,
} from '../responses';
import { email, loginSchema, resetPasswordParams } from '../schemas';
import { authSessionSchema, sessionUserSchema } from '../users';

const session = okResponse(authSessionSchema);

// SPEC §7 Auth: sessions (the refresh token travels as the httpOnly cookie `jrt`) and password reset.
export const authContract = defineRoutes('auth', {
  login: {
    method: 'POST',
    path: '/auth/login',
    summary: 'Sign in with email and password; the refresh token comes as a cookie',
    isPublic: true,
    body: loginSchema,
    response: {
      ...session,
      // SPEC §7: a refused login also carries errorMessage (older clients show it on the form).
      '4xx': errorResponseSchema.extend({ errorMessage: z.string().optional() }),
    },
  },
  refreshSession: {
    method: 'POST',
    path: '/auth/refresh_token',
    summary: 'Trade the refresh-token cookie for a new access token',
    isPublic: true,
    response: session,
  },
  logout: {
    method: 'DELETE',
    path: '/auth/logout',
    summary: 'End this session',
    response: noContentResponse,
  },
  getSessionUser: {
    method: 'GET',
    path: '/auth/me',
    summary: 'Read the signed-in user with their company, settings and plan',
    response: okResponse(sessionUserSchema),
  },
  requestPasswordReset: {
    method: 'POST',
    path: '/forgetpassword/:email',
    summary: 'Mail a password reset code',
    isPublic: true,
    params: z.object({ email }),
    response: okResponse(messageResponseSchema),
  },
  resetPassword: {
    method: 'POST',
    path: '/resetpasswords/:email/:token/:newPassword',
    summary: 'Set a new password with the mailed code; ends every session',
    isPublic: true,
    params: resetPasswordParams,
    response: okResponse(messageResponseSchema),
  },
});
