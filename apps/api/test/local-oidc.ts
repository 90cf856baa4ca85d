import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

// A real OpenID provider for the tests (`oidc-provider`, the certified implementation), on 127.0.0.1:
// the API's single sign-on talks to it with the real client, and a browser signs in on its own
// pages (devInteractions: a login form taking any account name this provider knows). The test
// decides the accounts and their claims.

export type LocalAccount = {
  email?: string;
  email_verified?: boolean;
  name?: string;
};

export type LocalOidc = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  // Account name (what the login form takes) → claims.
  accounts: Map<string, LocalAccount>;
  close: () => Promise<void>;
};

const CLIENT_ID = 'atendi';
const CLIENT_SECRET = 'local-oidc-client-secret';

export const startLocalOidc = async (options: {
  redirectUris: string[];
  // Profile claims in the ID token too (Google, Keycloak); otherwise only from userinfo, as the
  // specification's default has it.
  claimsInIdToken?: boolean;
  // Any account name that is an email signs in as that (verified) email: a demo's provider.
  anyEmail?: boolean;
  port?: number;
}): Promise<LocalOidc> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, LocalAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    findAccount: (_ctx, sub) => {
      const account =
        accounts.get(sub) ??
        (options.anyEmail && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(sub)
          ? { email: sub.toLowerCase(), email_verified: true, name: sub.split('@')[0] }
          : undefined);
      return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: !options.claimsInIdToken,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['local-oidc-cookie-key'] },
    // A first-party client: no consent page, as a company's own provider is set up.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.clientId,
        accountId: session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  // Its warnings about development keys and interactions are what a test provider is.
  provider.on('server_error', (_ctx, error) => process.stderr.write(`local-oidc: ${error}\n`));
  server.on('request', provider.callback());
  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

// A browser's trip through the provider's pages without a browser: follows its redirects with the
// cookies it sets, fills its login form with the account name, and stops at the first redirect to
// `until` (the API's callback), whose URL it answers.
export const signInAtProvider = async (
  authorizationUrl: string,
  account: string,
  until: string,
) => {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let hops = 0; hops < 10; hops += 1) {
    if (url.startsWith(until)) return url;
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: cookieHeader() },
      ...(body ? { body } : {}),
    });
    keep(response);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action || !html.includes('name="login"'))
      throw new Error(`The provider answered ${response.status}: ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    body = new URLSearchParams({ prompt: 'login', login: account, password: 'any' });
  }
  throw new Error('Too many hops at the provider');
};
