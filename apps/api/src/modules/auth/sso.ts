import { and, eq, lt } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { SsoConfigInput, SsoSettings } from '@atendi/shared';
import type { AppDeps } from '../../deps';
import { companies, companySso, ssoDomains, ssoRequests, users } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { audit, auditAs } from '../../platform/audit';
import type { AuthContext } from '../../platform/context';
import { refusalIn, type OutboundGuard } from '../../platform/outbound';
import { consume } from '../../platform/rate-limit';
import { foundOr404 } from '../../platform/tenancy';
import { createSsoUser } from '../users';
import { startSession } from './auth.service';
import { domainOf, providerForEmail } from './sso-policy';
import type { LoginClient } from './sessions';

// Single sign-on with OpenID Connect (issue 37), through `openid-client`: the authorization code flow
// with PKCE (S256), state and nonce. A sign-in on its way is a row named by the hash of its state,
// holding the nonce, the PKCE verifier (sealed) and the hash of a cookie the browser got when it
// left: the callback takes the row once (a replay finds none) and only from that browser (a
// provider's answer carried to someone else's browser signs nobody in). The provider's discovery
// document and keys are fetched through the outbound guard, like every URL a company types.

type Deps = Pick<
  AppDeps,
  'db' | 'tokens' | 'secrets' | 'config' | 'outbound' | 'limits' | 'realtime' | 'mailer'
>;
type SsoRow = typeof companySso.$inferSelect;

const SCOPE = 'openid email profile';
// Minutes a person has at the provider before the round trip must start again.
const REQUEST_TTL_MS = 10 * 60_000;
// A provider's discovery document (and keys) is kept this long per node.
const DISCOVERY_TTL_MS = 10 * 60_000;
const PROVIDER_TIMEOUT_SECONDS = 10;

const ssoCallbackUrl = (config: Deps['config']) => `${config.publicApiUrl}/auth/sso/callback`;

// A sign-in through the provider that ended without a session: the code goes to the login page,
// the reason to the audit log.
class SsoFailure extends AppError {
  constructor(
    code: ConstructorParameters<typeof AppError>[0],
    message: string,
    readonly reason = message,
  ) {
    super(code, message);
  }
}

// http:// issuers only where the operator lets company URLs reach its own networks (a provider on
// the same network); everywhere else the provider is spoken to over TLS.
const allowsHttp = (config: Deps['config']) =>
  config.outboundAllowPrivate === true ||
  (Array.isArray(config.outboundAllowPrivate) && config.outboundAllowPrivate.length > 0);

// Whether the error is the provider's (unreachable, refused by the guard, slow, not answering as an
// OpenID provider) rather than a round trip that does not verify.
const isProviderTrouble = (error: unknown) =>
  error instanceof TypeError ||
  !!refusalIn(error) ||
  (error instanceof oidc.ClientError &&
    [
      'OAUTH_TIMEOUT',
      'OAUTH_ABORT',
      'OAUTH_RESPONSE_IS_NOT_CONFORM',
      'OAUTH_RESPONSE_IS_NOT_JSON',
      'OAUTH_HTTP_REQUEST_FORBIDDEN',
    ].includes(error.code ?? ''));

const messageOf = (error: unknown) => {
  const refusal = refusalIn(error);
  if (refusal) return refusal.message;
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  const own = error instanceof Error ? error.message : String(error);
  return cause && cause !== own ? `${own}: ${cause}` : own;
};

const discover = (outbound: OutboundGuard, config: Deps['config'], row: SsoRow, secret: string) =>
  oidc.discovery(new URL(row.issuer), row.clientId, secret, oidc.ClientSecretPost(secret), {
    [oidc.customFetch]: outbound.fetch,
    timeout: PROVIDER_TIMEOUT_SECONDS,
    execute:
      row.issuer.startsWith('http:') && allowsHttp(config) ? [oidc.allowInsecureRequests] : [],
  });

// Discovered providers, per node and per outbound guard (an app's), by company; a saved change
// (a new updatedAt) or ten minutes' age fetches it again.
const discovered = new WeakMap<
  OutboundGuard,
  Map<number, { key: string; at: number; configuration: Promise<oidc.Configuration> }>
>();

const configurationOf = async (deps: Deps, row: SsoRow) => {
  let cache = discovered.get(deps.outbound);
  if (!cache) discovered.set(deps.outbound, (cache = new Map()));
  const key = `${row.issuer}|${row.clientId}|${row.updatedAt.getTime()}`;
  const cached = cache.get(row.companyId);
  if (cached && cached.key === key && Date.now() - cached.at < DISCOVERY_TTL_MS)
    return cached.configuration;
  const configuration = discover(
    deps.outbound,
    deps.config,
    row,
    deps.secrets.open(row.clientSecret),
  );
  cache.set(row.companyId, { key, at: Date.now(), configuration });
  // A failure is not kept: the next sign-in tries again.
  configuration.catch(() => {
    if (cache.get(row.companyId)?.configuration === configuration) cache.delete(row.companyId);
  });
  return configuration;
};

// GET /auth/sso/start: the provider's authorization URL, and the browser binding to leave as a cookie.
export const startSso = async (deps: Deps, email: string, ip: string) => {
  await consume(deps.limits.sso, ip, 'Too many sign-ins from this address, try later');
  const row = await providerForEmail(deps.db, email);
  if (!row) throw new AppError('ERR_SSO_NOT_CONFIGURED', 'This email does not sign in with SSO');
  let configuration: oidc.Configuration;
  try {
    configuration = await configurationOf(deps, row);
  } catch (error) {
    // The company's admins learn why from the audit log.
    await audit(deps.db, {
      companyId: row.companyId,
      userId: null,
      action: 'auth.sso_failed',
      detail: { error: 'ERR_SSO_PROVIDER', reason: messageOf(error), email },
      address: ip,
    });
    throw new SsoFailure(
      'ERR_SSO_PROVIDER',
      'The identity provider could not be reached',
      messageOf(error),
    );
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const browser = deps.tokens.newOpaqueToken();
  await deps.db.delete(ssoRequests).where(lt(ssoRequests.expiresAt, new Date()));
  await deps.db.insert(ssoRequests).values({
    stateHash: deps.tokens.hashOpaque(`sso-state:${state}`),
    companyId: row.companyId,
    browserHash: deps.tokens.hashOpaque(`sso-browser:${browser}`),
    nonce,
    codeVerifier: deps.secrets.seal(verifier),
    expiresAt: new Date(Date.now() + REQUEST_TTL_MS),
  });
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: ssoCallbackUrl(deps.config),
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    login_hint: email,
  });
  return { url: url.href, browser, maxAgeSeconds: REQUEST_TTL_MS / 1000 };
};

type Claims = Record<string, unknown>;

// The email the provider vouches for: `email_verified` (OpenID Connect), or Microsoft Entra ID's
// `xms_edov` (the email's domain is verified in the tenant), which sends no email_verified.
const verifiedEmailOf = (claims: Claims) => {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  const verified =
    claims.email_verified === true ||
    claims.email_verified === 'true' ||
    claims.xms_edov === true ||
    claims.xms_edov === '1';
  return { email, verified };
};

// The claims of the sign-in: the ID token's, completed by the userinfo endpoint when the ID token
// carries no email (providers that keep profile claims out of the ID token).
const claimsOf = async (
  configuration: oidc.Configuration,
  tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>,
): Promise<Claims> => {
  const claims = tokens.claims();
  if (!claims) throw new SsoFailure('ERR_SSO_REQUEST', 'The provider sent no ID token');
  if (typeof claims.email === 'string') return claims;
  const info = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
  return { ...info, ...claims, email: info.email, email_verified: info.email_verified };
};

const fail = (code: ConstructorParameters<typeof AppError>[0], message: string, reason = message) =>
  new SsoFailure(code, message, reason);

// GET /auth/sso/callback: checks the provider's answer and signs the person in. `search` is the
// callback's query string as received (openid-client checks code, state and iss in it).
export const finishSso = async (
  deps: Deps,
  input: { search: string; state?: string; error?: string; errorDescription?: string },
  browser: string | undefined,
  client: LoginClient,
) => {
  let companyId: number | null = null;
  let email = '';
  try {
    await consume(deps.limits.sso, client.ip, 'Too many sign-ins from this address, try later');
    if (!input.state) throw fail('ERR_SSO_REQUEST', 'The provider’s answer names no sign-in');
    // Taken once: a second use of the same answer finds nothing.
    const [request] = await deps.db
      .delete(ssoRequests)
      .where(eq(ssoRequests.stateHash, deps.tokens.hashOpaque(`sso-state:${input.state}`)))
      .returning();
    if (!request || request.expiresAt <= new Date())
      throw fail(
        'ERR_SSO_REQUEST',
        'This sign-in is over or unknown: start again',
        'unknown state',
      );
    companyId = request.companyId;
    if (
      !browser ||
      !deps.tokens.sameHash(request.browserHash, deps.tokens.hashOpaque(`sso-browser:${browser}`))
    )
      throw fail(
        'ERR_SSO_REQUEST',
        'This sign-in was started in another browser',
        'browser mismatch',
      );
    if (input.error)
      throw fail(
        input.error === 'access_denied' ? 'ERR_SSO_DENIED' : 'ERR_SSO_PROVIDER',
        'The identity provider did not sign you in',
        `${input.error}${input.errorDescription ? `: ${input.errorDescription}` : ''}`,
      );
    const [row] = await deps.db
      .select()
      .from(companySso)
      .where(and(eq(companySso.companyId, request.companyId), eq(companySso.enabled, true)));
    if (!row) throw fail('ERR_SSO_NOT_CONFIGURED', 'The company no longer signs in with SSO');

    let claims: Claims;
    try {
      const configuration = await configurationOf(deps, row);
      const url = new URL(ssoCallbackUrl(deps.config));
      url.search = input.search;
      const tokens = await oidc.authorizationCodeGrant(configuration, url, {
        pkceCodeVerifier: deps.secrets.open(request.codeVerifier),
        expectedState: input.state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
      claims = await claimsOf(configuration, tokens);
    } catch (error) {
      if (error instanceof SsoFailure) throw error;
      throw isProviderTrouble(error)
        ? fail('ERR_SSO_PROVIDER', 'The identity provider could not be reached', messageOf(error))
        : fail('ERR_SSO_REQUEST', 'The provider’s answer could not be verified', messageOf(error));
    }

    const vouched = verifiedEmailOf(claims);
    email = vouched.email;
    if (!email || !vouched.verified)
      throw fail('ERR_SSO_EMAIL_UNVERIFIED', 'The identity provider did not confirm your email');
    const domains = await deps.db
      .select({ domain: ssoDomains.domain })
      .from(ssoDomains)
      .where(eq(ssoDomains.companyId, row.companyId));
    if (!domains.some((d) => d.domain === domainOf(email)))
      throw fail('ERR_SSO_NO_ACCOUNT', 'Your email is not one this company signs in with SSO');

    let [user] = await deps.db.select().from(users).where(eq(users.email, email));
    if (user && user.companyId !== row.companyId)
      throw fail(
        'ERR_SSO_NO_ACCOUNT',
        'There is no account for your email in this company',
        'account of another company',
      );
    if (!user) {
      if (!row.createUsers)
        throw fail(
          'ERR_SSO_NO_ACCOUNT',
          'There is no account for your email: ask an administrator',
        );
      const name =
        typeof claims.name === 'string' && claims.name.trim()
          ? claims.name.trim()
          : email.split('@')[0]!;
      await createSsoUser(deps, row.companyId, { name: name.slice(0, 100), email }, client.ip);
      [user] = await deps.db.select().from(users).where(eq(users.email, email));
      if (!user || user.companyId !== row.companyId)
        throw fail('ERR_SSO_NO_ACCOUNT', 'There is no account for your email in this company');
    }
    await deps.limits.sso.reward(client.ip);
    return await startSession(deps, user, client, 'sso');
  } catch (error) {
    if (error instanceof AppError && error.code !== 'ERR_TOO_MANY_REQUESTS')
      await audit(deps.db, {
        companyId,
        userId: null,
        action: 'auth.sso_failed',
        detail: {
          error: error.code,
          reason: error instanceof SsoFailure ? error.reason : error.message,
          ...(email ? { email } : {}),
        },
        address: client.ip,
      });
    throw error;
  }
};

// Issue 37's settings: a company's provider, as its admins (or a super user) see it.
const assertCompanyAccess = (ctx: AuthContext, id: number) => {
  if (!ctx.isSuper && ctx.companyId !== id) throw new AppError('ERR_NO_COMPANY_FOUND');
};

export const getSsoSettings = async (
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: AuthContext,
  companyId: number,
): Promise<SsoSettings> => {
  assertCompanyAccess(ctx, companyId);
  foundOr404(
    (
      await deps.db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId))
    )[0],
    'ERR_NO_COMPANY_FOUND',
  );
  const callbackUrl = ssoCallbackUrl(deps.config);
  const [row] = await deps.db.select().from(companySso).where(eq(companySso.companyId, companyId));
  if (!row) return { config: null, callbackUrl };
  const domains = await deps.db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(eq(ssoDomains.companyId, companyId))
    .orderBy(ssoDomains.domain);
  return {
    config: {
      issuer: row.issuer,
      clientId: row.clientId,
      hasSecret: true,
      domains: domains.map((d) => d.domain),
      enabled: row.enabled,
      createUsers: row.createUsers,
      passwordLogin: row.passwordLogin,
      callbackUrl,
    },
    callbackUrl,
  };
};

const fieldError = (
  code: ConstructorParameters<typeof AppError>[0],
  field: string,
  message: string,
) => new AppError(code, message, { fields: { [field]: [message] } });

// PUT /companies/{id}/sso: the provider is discovered with what was typed before anything is saved
// (a wrong issuer or an unreachable provider is an error on the form, not a broken login page).
export const updateSso = async (
  deps: Deps,
  ctx: AuthContext,
  companyId: number,
  input: SsoConfigInput,
) => {
  assertCompanyAccess(ctx, companyId);
  await getSsoSettings(deps, ctx, companyId);
  if (input.issuer.startsWith('http:') && !allowsHttp(deps.config))
    throw fieldError('ERR_VALIDATION', 'issuer', 'The provider must be reached over https://');
  await deps.outbound.check(input.issuer, 'issuer');
  const [existing] = await deps.db
    .select()
    .from(companySso)
    .where(eq(companySso.companyId, companyId));
  const typed = input.clientSecret?.trim();
  const secret = typed || (existing ? deps.secrets.open(existing.clientSecret) : '');
  if (!secret) throw fieldError('ERR_VALIDATION', 'clientSecret', 'The client secret is required');
  const values = {
    issuer: input.issuer.replace(/\/$/, ''),
    clientId: input.clientId,
    enabled: input.enabled ?? true,
    createUsers: input.createUsers ?? false,
    passwordLogin: input.passwordLogin ?? true,
  };
  try {
    await discover(
      deps.outbound,
      deps.config,
      { ...values, companyId, clientSecret: '', createdAt: new Date(), updatedAt: new Date() },
      secret,
    );
  } catch (error) {
    throw fieldError(
      'ERR_SSO_PROVIDER',
      'issuer',
      `The provider's discovery failed: ${messageOf(error)}`,
    );
  }
  const domains = [...new Set(input.domains)];
  await deps.db.transaction(async (tx) => {
    const row = { ...values, clientSecret: deps.secrets.seal(secret), updatedAt: new Date() };
    await tx
      .insert(companySso)
      .values({ companyId, ...row })
      .onConflictDoUpdate({ target: companySso.companyId, set: row });
    await tx.delete(ssoDomains).where(eq(ssoDomains.companyId, companyId));
    const claimed = await tx
      .insert(ssoDomains)
      .values(domains.map((domain) => ({ domain, companyId })))
      .onConflictDoNothing()
      .returning({ domain: ssoDomains.domain });
    const taken = domains.filter((domain) => !claimed.some((c) => c.domain === domain));
    if (taken.length)
      throw fieldError(
        'ERR_SSO_DOMAIN_TAKEN',
        'domains',
        `Another company signs in with SSO for ${taken.join(', ')}`,
      );
    await auditAs(tx, ctx, {
      action: 'sso.updated',
      target: `company:${companyId}`,
      detail: {
        ...values,
        domains,
        secretChanged: !existing || (!!typed && typed !== deps.secrets.open(existing.clientSecret)),
      },
    });
  });
  return getSsoSettings(deps, ctx, companyId);
};

export const deleteSso = async (
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: AuthContext,
  companyId: number,
) => {
  const { config } = await getSsoSettings(deps, ctx, companyId);
  if (!config) throw new AppError('ERR_SSO_NOT_CONFIGURED', 'The company has no single sign-on');
  await deps.db.transaction(async (tx) => {
    await tx.delete(ssoDomains).where(eq(ssoDomains.companyId, companyId));
    await tx.delete(ssoRequests).where(eq(ssoRequests.companyId, companyId));
    const [gone] = await tx
      .delete(companySso)
      .where(eq(companySso.companyId, companyId))
      .returning({ companyId: companySso.companyId });
    if (!gone) throw new AppError('ERR_SSO_NOT_CONFIGURED', 'The company has no single sign-on');
    await auditAs(tx, ctx, {
      action: 'sso.deleted',
      target: `company:${companyId}`,
      detail: { issuer: config.issuer, domains: config.domains },
    });
  });
};
