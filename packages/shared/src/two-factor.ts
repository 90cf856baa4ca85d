import { z } from 'zod';
import { dateTime } from './responses';
import { authSessionSchema } from './users';

// Two-factor sign-in (issue 37): TOTP (RFC 6238: 6 digits, 30 s) with ten one-time recovery codes.

// A password that was right, for an account with a second factor (verify) or one its company
// requires and it has none yet (enroll): no session until the second step, which names this.
export const twoFactorStepSchema = z.object({
  twoFactor: z.enum(['verify', 'enroll']),
  challenge: z.string(),
});
export type TwoFactorStep = z.input<typeof twoFactorStepSchema>;
export const loginResultSchema = z.union([authSessionSchema, twoFactorStepSchema]);

// A code from the authenticator app (6 digits) or a recovery code (xxxxx-xxxxx, dash optional).
export const twoFactorCode = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\d{6}|[a-z2-7]{5}-?[a-z2-7]{5})$/, 'A 6-digit code or a recovery code');
const challenge = z.string().trim().min(20).max(200);

export const twoFactorChallengeSchema = z.object({ challenge });
export const twoFactorLoginSchema = z.object({ challenge, code: twoFactorCode });
export const twoFactorCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The 6-digit code of the app'),
});
export const twoFactorDisableSchema = z.object({
  password: z.string().min(1).max(100),
  code: twoFactorCode,
});

// The secret while enrolling (to type into the app, or its otpauth URI as a QR code): shown then only.
export const twoFactorSetupSchema = z.object({ secret: z.string(), uri: z.string() });
export type TwoFactorSetup = z.input<typeof twoFactorSetupSchema>;
// Shown once, when the second factor is enabled.
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export const enrolledSessionSchema = authSessionSchema.extend({
  recoveryCodes: z.array(z.string()),
});
export type EnrolledSession = z.input<typeof enrolledSessionSchema>;

// GET /auth/two-factor: whether the signed-in user has a second factor, whether their company (or,
// for a super user, the platform) requires one, and how many unused recovery codes they have.
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
  recoveryCodesLeft: z.number(),
});
export type TwoFactorStatus = z.input<typeof twoFactorStatusSchema>;

// GET /auth/sessions: the signed-in user's live logins, newest first; `current` is this one.
export const sessionViewSchema = z.object({
  id: z.string(),
  device: z.string(),
  address: z.string(),
  createdAt: dateTime,
  lastUsedAt: dateTime,
  current: z.boolean(),
});
export type SessionView = z.input<typeof sessionViewSchema>;
export const sessionsSchema = z.object({ sessions: z.array(sessionViewSchema) });
export const sessionIdParam = z.object({ id: z.uuid() });
