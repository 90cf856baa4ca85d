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
import {
  enrolledSessionSchema,
  loginResultSchema,
  recoveryCodesSchema,
  twoFactorChallengeSchema,
  twoFactorCodeSchema,
  twoFactorDisableSchema,
  twoFactorLoginSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
  sessionIdParam,
  sessionsSchema,
} from '../two-factor';

const session = okResponse(authSessionSchema);

// SPEC §7 Auth: sessions (the refresh token travels as the httpOnly cookie `jrt`) and password reset.
export const authContract = defineRoutes('auth', {
  login: {
    method: 'POST',
    path: '/auth/login',
    summary:
      'Sign in with email and password; the refresh token comes as a cookie, or a second step is asked for',
    isPublic: true,
    body: loginSchema,
    response: {
      ...okResponse(loginResultSchema),
      // SPEC §7: a refused login also carries errorMessage (older clients show it on the form).
      '4xx': errorResponseSchema.extend({ errorMessage: z.string().optional() }),
    },
  },
  loginTwoFactor: {
    method: 'POST',
    path: '/auth/login/two-factor',
    summary: "Finish a sign-in with the authenticator app's code or a recovery code",
    isPublic: true,
    body: twoFactorLoginSchema,
    response: session,
  },
  loginTwoFactorSetup: {
    method: 'POST',
    path: '/auth/login/two-factor/setup',
    summary: 'Start the second factor a company requires, within a sign-in',
    isPublic: true,
    body: twoFactorChallengeSchema,
    response: okResponse(twoFactorSetupSchema),
  },
  loginTwoFactorEnroll: {
    method: 'POST',
    path: '/auth/login/two-factor/enroll',
    summary: 'Confirm the new second factor with its first code and finish the sign-in',
    isPublic: true,
    body: twoFactorLoginSchema,
    response: okResponse(enrolledSessionSchema),
  },
  getTwoFactor: {
    method: 'GET',
    path: '/auth/two-factor',
    summary: "Read whether the signed-in user's second factor is on, and required",
    response: okResponse(twoFactorStatusSchema),
  },
  setupTwoFactor: {
    method: 'POST',
    path: '/auth/two-factor/setup',
    summary: 'Start enrolling an authenticator app (the secret is shown this once)',
    response: okResponse(twoFactorSetupSchema),
  },
  enableTwoFactor: {
    method: 'POST',
    path: '/auth/two-factor/enable',
    summary: "Turn the second factor on with the app's first code; answers the recovery codes once",
    body: twoFactorCodeSchema,
    response: okResponse(recoveryCodesSchema),
  },
  disableTwoFactor: {
    method: 'POST',
    path: '/auth/two-factor/disable',
    summary: 'Turn the second factor off with the password and a code',
    body: twoFactorDisableSchema,
    response: noContentResponse,
  },
  listSessions: {
    method: 'GET',
    path: '/auth/sessions',
    summary: "List the signed-in user's live sessions (device, address, last use)",
    response: okResponse(sessionsSchema),
  },
  endSession: {
    method: 'DELETE',
    path: '/auth/sessions/:id',
    summary: 'End one of my sessions (its tokens and sockets, on every node)',
    params: sessionIdParam,
    response: noContentResponse,
  },
  endOtherSessions: {
    method: 'DELETE',
    path: '/auth/sessions',
    summary: 'End all my sessions but this one',
    response: noContentResponse,
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
