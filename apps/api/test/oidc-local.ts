import { publicApiUrlFromEnv } from '../src/config';
import { startLocalOidc } from './local-oidc';

// `npm run oidc:local`: the tests' local OpenID provider, to try single sign-on on a machine without
// Keycloak, Google or Microsoft (or internet). Its sign-in page takes any email as the account name
// (and any password) and vouches for it. Start it, start the product with
// OUTBOUND_ALLOW_PRIVATE=127.0.0.1 (the provider is on this machine), and enter what it prints in
// Settings › Inicio de sesión único.

const port = Number(process.env.OIDC_LOCAL_PORT ?? 4020);
const callbackUrl = `${publicApiUrlFromEnv()}/auth/sso/callback`;
const provider = await startLocalOidc({ redirectUris: [callbackUrl], anyEmail: true, port });
process.stdout.write(
  [
    `Local OpenID provider on ${provider.issuer} (redirect URI ${callbackUrl})`,
    'Start the product with:',
    '  OUTBOUND_ALLOW_PRIVATE=127.0.0.1 npm start',
    'and in Settings › Inicio de sesión único enter:',
    `  Emisor (issuer):     ${provider.issuer}`,
    `  ID de cliente:       ${provider.clientId}`,
    `  Secreto del cliente: ${provider.clientSecret}`,
    '  Dominios de correo:  the domain of the emails to sign in with',
    '',
  ].join('\n'),
);

const stop = () => void provider.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
