import { z } from 'zod';
import { email } from './schemas';

// Single sign-on with OpenID Connect (issue 37): one provider per company, for the email domains it
// covers. The client secret is written, never read back.

// An email domain as people type it ("@Acme.com" is "acme.com"): labels of letters, digits and
// hyphens, at least one dot.
export const ssoDomain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^@/, ''))
  .pipe(
    z
      .string()
      .max(253)
      .regex(
        /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
        'An email domain, like empresa.com',
      ),
  );

export const ssoConfigInputSchema = z.object({
  // The provider's issuer: its discovery document is at {issuer}/.well-known/openid-configuration.
  issuer: z
    .url({ protocol: /^https?$/, message: 'The address of the provider (https://…)' })
    .max(500),
  clientId: z.string().trim().min(1).max(500),
  // Left out (or empty) to keep the one saved.
  clientSecret: z.string().trim().max(2000).optional(),
  domains: z
    .array(ssoDomain)
    .min(1, 'At least one email domain')
    .max(20)
    .refine((list) => new Set(list).size === list.length, 'A domain is listed twice'),
  enabled: z.boolean().default(true),
  // People of these domains without an account get one (profile user) at their first sign-in.
  createUsers: z.boolean().default(false),
  // Off: the company's people sign in with SSO only (super users keep their password).
  passwordLogin: z.boolean().default(true),
});
export type SsoConfigInput = z.input<typeof ssoConfigInputSchema>;

export const ssoConfigSchema = z.object({
  issuer: z.string(),
  clientId: z.string(),
  hasSecret: z.boolean(),
  domains: z.array(z.string()),
  enabled: z.boolean(),
  createUsers: z.boolean(),
  passwordLogin: z.boolean(),
  // The redirect URI to register at the provider.
  callbackUrl: z.string(),
});
export type SsoConfig = z.input<typeof ssoConfigSchema>;
// GET /companies/{id}/sso: null until an admin sets one up; the callback URL either way.
export const ssoSettingsSchema = z.object({
  config: ssoConfigSchema.nullable(),
  callbackUrl: z.string(),
});
export type SsoSettings = z.input<typeof ssoSettingsSchema>;

// The login page asks, for the email typed, whether SSO is offered and whether a password still is.
export const ssoEmailQuery = z.object({ email });
export const ssoDiscoverySchema = z.object({ sso: z.boolean(), passwordLogin: z.boolean() });
export type SsoDiscovery = z.input<typeof ssoDiscoverySchema>;

// What the provider sends back to the callback (RFC 6749 §4.1.2, RFC 9207's iss); other parameters
// a provider adds are ignored.
const param = z.string().max(4000).optional();
export const ssoCallbackQuery = z.object({
  code: param,
  state: param,
  iss: param,
  error: param,
  error_description: param,
});

// The errors a sign-in through the provider ends with, sent to the login page as ?ssoError=.
export const ssoErrorCodes = [
  'ERR_SSO_NOT_CONFIGURED',
  'ERR_SSO_PROVIDER',
  'ERR_SSO_REQUEST',
  'ERR_SSO_DENIED',
  'ERR_SSO_EMAIL_UNVERIFIED',
  'ERR_SSO_NO_ACCOUNT',
  'ERR_TOO_MANY_REQUESTS',
] as const;
export type SsoErrorCode = (typeof ssoErrorCodes)[number];
