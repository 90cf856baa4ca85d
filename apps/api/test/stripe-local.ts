import { ConfigError, publicApiUrlFromEnv } from '../src/config';
import { startFakeStripe, STRIPE_KEY, WEBHOOK_SECRET } from './fake-stripe';

// `npm run stripe:local`: the tests' local Stripe, to try the whole payment path on a machine without
// a Stripe account (or internet). Start it, then the product with the variables it prints: a super
// user syncs a plan's price (Settings → Plans), an admin subscribes, and "Pagar" on the stand-in
// checkout page sends the signed webhooks Stripe would.
//
// The webhooks go where the API listens: PUBLIC_API_URL, else http://localhost:$PORT, read with the
// API's own rules (config.ts), so PORT unset means the API's default port. Give both the same PORT.

let api: string;
try {
  api = publicApiUrlFromEnv();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const port = Number(process.env.STRIPE_LOCAL_PORT ?? 12111);
const fake = await startFakeStripe({ webhookUrl: `${api}/subscriptions/webhook`, port });
// The start command repeats what placed the API, so the product listens where the webhooks go.
const placed = ['PORT', 'PUBLIC_API_URL']
  .filter((name) => process.env[name])
  .map((name) => `${name}=${process.env[name]} `)
  .join('');
process.stdout.write(
  [
    `Local Stripe stand-in on ${fake.url}; webhooks go to ${api}/subscriptions/webhook`,
    'Start the product with:',
    `  ${placed}STRIPE_SECRET_KEY=${STRIPE_KEY} STRIPE_WEBHOOK_SECRET=${WEBHOOK_SECRET} STRIPE_API_BASE=${fake.url} npm start`,
    '',
  ].join('\n'),
);
