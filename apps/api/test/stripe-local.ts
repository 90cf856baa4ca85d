import { startFakeStripe, STRIPE_KEY, WEBHOOK_SECRET } from './fake-stripe';

// `npm run stripe:local`: the tests' local Stripe, to try the whole payment path on a machine without
// a Stripe account (or internet). Start it, then the product with the three variables it prints: a
// super user syncs a plan's price (Settings → Plans), an admin subscribes, and "Pagar" on the
// stand-in checkout page sends the signed webhooks Stripe would.

const port = Number(process.env.STRIPE_LOCAL_PORT ?? 12111);
const api = (process.env.PUBLIC_API_URL ?? `http://localhost:${process.env.PORT ?? 8080}`).replace(
  /\/$/,
  '',
);
const fake = await startFakeStripe({ webhookUrl: `${api}/subscriptions/webhook`, port });
process.stdout.write(
  [
    `Local Stripe stand-in on ${fake.url}; webhooks go to ${api}/subscriptions/webhook`,
    'Start the product with:',
    `  STRIPE_SECRET_KEY=${STRIPE_KEY} STRIPE_WEBHOOK_SECRET=${WEBHOOK_SECRET} STRIPE_API_BASE=${fake.url} npm start`,
    '',
  ].join('\n'),
);
