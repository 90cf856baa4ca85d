import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { addMonths } from '@atendi/shared';

// A local stand-in for Stripe (the machines running tests have no internet). It speaks the part of
// Stripe's HTTP API the product calls (form-encoded requests, JSON answers, Stripe's error shape), so
// the real `stripe` SDK talks to it through STRIPE_API_BASE; it records every request and fails on
// demand. It also serves a stand-in for the hosted checkout page: "pay" there completes the session,
// sends the signed webhooks Stripe would send, and returns the browser to the success URL.

export const STRIPE_KEY = 'sk_test_fake';
export const WEBHOOK_SECRET = 'whsec_fake_secret';

export type StripeRequest = {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey?: string;
};

type StripeObject = Record<string, unknown> & { id: string };

export type FakeStripe = {
  url: string;
  requests: StripeRequest[];
  objects: Map<string, StripeObject>;
  // Where "pay" on the hosted page posts its webhooks (the API's /subscriptions/webhook).
  webhookUrl?: string;
  // The next request whose path includes pathPart answers this Stripe error.
  failNext(status: number, pathPart?: string): void;
  // Drops the failures asked for that no request has met yet.
  clearFailures(): void;
  // Completes a checkout session as a customer paying would: a subscription and a paid invoice exist
  // and the webhook events Stripe sends are returned (not sent).
  complete(sessionId: string): StripeEvent[];
  close(): Promise<void>;
};

export type StripeEvent = {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: Record<string, unknown> };
};

let counter = 0;
const newId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(counter += 1)}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

// Stripe's form encoding: a[b][0][c]=v → { a: { b: [{ c: v }] } }.
const parseForm = (body: string) => {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = value;
        return;
      }
      const next = parts[i + 1];
      node[part] ??= /^\d+$/.test(next) ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return out;
};

// Stripe answers numbers and booleans as JSON types; the form encoding sent them as text.
const numericKeys = new Set(['unit_amount', 'interval_count', 'quantity']);
const typed = (value: unknown, key = ''): unknown => {
  if (Array.isArray(value)) return value.map((v) => typed(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === 'metadata' ? v : typed(v, k)]),
    );
  if (value === 'true' || value === 'false') return value === 'true';
  if (numericKeys.has(key) && typeof value === 'string' && /^\d+$/.test(value))
    return Number(value);
  return value;
};

// A Stripe event around an object, as webhooks deliver it.
export const stripeEvent = (
  type: string,
  object: Record<string, unknown>,
  created = nowSeconds(),
): StripeEvent => ({
  id: newId('evt'),
  object: 'event',
  type,
  created,
  api_version: '2026-10-28.endive',
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  data: { object },
});

// The Stripe-Signature header Stripe would send for this body, made by the SDK's own helper.
export const signature = (payload: string, secret = WEBHOOK_SECRET, timestamp = nowSeconds()) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

// Seconds one calendar month after `seconds` (Stripe's monthly billing anchor).
export const monthAfter = (seconds: number) =>
  Math.floor(addMonths(new Date(seconds * 1000), 1).getTime() / 1000);

// Stripe-shaped objects the tests and the fake build events from.
export const makeSubscription = (fields: {
  id?: string;
  customer: string;
  status?: string;
  price: string;
  metadata?: Record<string, string>;
  periodStart?: number;
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  trialEnd?: number | null;
  latestInvoice?: string | null;
}) => {
  const start = fields.periodStart ?? nowSeconds();
  // A monthly price: the period ends the same day of the next month, as Stripe's does.
  const end = fields.periodEnd ?? monthAfter(start);
  return {
    id: fields.id ?? newId('sub'),
    object: 'subscription',
    customer: fields.customer,
    status: fields.status ?? 'active',
    start_date: start,
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    trial_end: fields.trialEnd ?? null,
    latest_invoice: fields.latestInvoice ?? null,
    metadata: fields.metadata ?? {},
    items: {
      object: 'list',
      data: [
        {
          id: newId('si'),
          object: 'subscription_item',
          price: { id: fields.price, object: 'price' },
          current_period_start: start,
          current_period_end: end,
        },
      ],
    },
  };
};

export const makeInvoice = (fields: {
  id?: string;
  customer: string;
  subscription?: string | null;
  metadata?: Record<string, string>;
  status?: string;
  amount: number;
  currency?: string;
  dueDate?: number | null;
  paidAt?: number | null;
  // The subscription period the invoice pays for (its line's period).
  period?: { start: number; end: number };
}) => {
  const created = nowSeconds();
  return {
    id: fields.id ?? newId('in'),
    object: 'invoice',
    customer: fields.customer,
    status: fields.status ?? 'paid',
    amount_due: fields.amount,
    amount_paid: fields.status === 'paid' || fields.status === undefined ? fields.amount : 0,
    currency: fields.currency ?? 'usd',
    created,
    due_date: fields.dueDate ?? null,
    period_end: created,
    hosted_invoice_url: `https://invoice.stripe.test/${fields.id ?? 'i'}`,
    status_transitions: { paid_at: fields.paidAt ?? (fields.status === 'paid' ? created : null) },
    lines: {
      object: 'list',
      data: fields.period
        ? [{ id: newId('il'), object: 'line_item', amount: fields.amount, period: fields.period }]
        : [],
    },
    parent: fields.subscription
      ? {
          type: 'subscription_details',
          subscription_details: {
            subscription: fields.subscription,
            metadata: fields.metadata ?? {},
          },
        }
      : null,
  };
};

const checkoutPage = (session: StripeObject) => `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Checkout (stand-in)</title></head>
<body>
<h1>Pagar suscripción</h1>
<p data-testid="amount">${String(session.amount_total ?? '')}</p>
<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pagar</button></form>
<a href="${String(session.cancel_url)}">Cancelar</a>
</body></html>`;

export const startFakeStripe = async (
  options: { webhookUrl?: string; webhookSecret?: string; port?: number } = {},
): Promise<FakeStripe> => {
  const requests: StripeRequest[] = [];
  const objects = new Map<string, StripeObject>();
  const failures: { status: number; pathPart?: string }[] = [];
  const secret = options.webhookSecret ?? WEBHOOK_SECRET;

  const store = (object: StripeObject) => {
    objects.set(object.id, object);
    return object;
  };

  const complete = (sessionId: string): StripeEvent[] => {
    const session = objects.get(sessionId);
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    const metadata = (session.metadata ?? {}) as Record<string, string>;
    const price = ((session.line_items as { price: string }[] | undefined) ?? [])[0]?.price ?? '';
    const customer = String(session.customer ?? store({ id: newId('cus'), object: 'customer' }).id);
    const unitAmount = Number(
      (objects.get(price) as { unit_amount?: string } | undefined)?.unit_amount ?? 0,
    );
    const subscription = store(
      makeSubscription({ customer, price, metadata: { ...metadata } }) as StripeObject,
    );
    const item = (subscription as ReturnType<typeof makeSubscription>).items.data[0];
    const invoice = store(
      makeInvoice({
        customer,
        subscription: subscription.id,
        metadata: { ...metadata },
        amount: unitAmount,
        status: 'paid',
        period: { start: item.current_period_start, end: item.current_period_end },
      }) as StripeObject,
    );
    subscription.latest_invoice = invoice.id;
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      subscription: subscription.id,
      invoice: invoice.id,
      customer,
      amount_total: unitAmount,
    });
    return [
      stripeEvent('customer.subscription.created', subscription),
      stripeEvent('checkout.session.completed', session),
      stripeEvent('invoice.paid', invoice),
    ];
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
    res.end(JSON.stringify(body));
  };
  const stripeError = (res: ServerResponse, status: number, message: string, code?: string) =>
    send(res, status, {
      error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message, code },
    });

  const api = (req: IncomingMessage, res: ServerResponse, path: string, body: string) => {
    const params = (req.method === 'GET' ? {} : typed(parseForm(body))) as Record<string, unknown>;
    const key = req.headers['idempotency-key'];
    requests.push({
      method: req.method ?? '',
      path,
      params,
      idempotencyKey: typeof key === 'string' ? key : undefined,
    });
    if (req.headers.authorization !== `Bearer ${STRIPE_KEY}`)
      return stripeError(res, 401, 'Invalid API Key provided');
    const failure = failures.findIndex((f) => !f.pathPart || path.includes(f.pathPart));
    if (failure >= 0) {
      const [{ status }] = failures.splice(failure, 1);
      return stripeError(res, status, 'Simulated failure');
    }
    const [, , resource, id, action] = path.split('/');
    const existing = id ? objects.get(id) : undefined;
    if (id && !existing && !(resource === 'checkout' && id === 'sessions'))
      return stripeError(res, 404, `No such object: '${id}'`, 'resource_missing');
    if (req.method === 'GET' && existing) return send(res, 200, existing);
    // DELETE /v1/subscriptions/{id}: cancel.
    if (req.method === 'DELETE' && existing) {
      if (existing.status === 'canceled')
        return stripeError(res, 400, 'This subscription is already canceled', 'resource_missing');
      return send(res, 200, Object.assign(existing, { status: 'canceled' }));
    }
    if (req.method === 'POST' && existing && !action)
      return send(res, 200, Object.assign(existing, params));
    if (req.method !== 'POST') return stripeError(res, 404, 'Unrecognized request URL');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    switch (resource) {
      case 'customers':
        return send(res, 200, store({ id: newId('cus'), object: 'customer', ...params }));
      case 'products':
        return send(
          res,
          200,
          store({ id: newId('prod'), object: 'product', active: true, ...params }),
        );
      case 'prices':
        return send(
          res,
          200,
          store({
            id: newId('price'),
            object: 'price',
            active: true,
            ...params,
          }),
        );
      case 'checkout': {
        const sessionId = newId('cs_test');
        return send(
          res,
          200,
          store({
            id: sessionId,
            object: 'checkout.session',
            status: 'open',
            payment_status: 'unpaid',
            url: `${base}/checkout/${sessionId}`,
            ...params,
          }),
        );
      }
      default:
        return stripeError(res, 404, 'Unrecognized request URL');
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0];
      if (path.startsWith('/v1/')) return api(req, res, path, body);
      const page = /^\/checkout\/([^/]+)(\/pay)?$/.exec(path);
      const session = page ? objects.get(page[1]) : undefined;
      if (!page || !session) {
        res.writeHead(404).end('not found');
        return;
      }
      if (!page[2]) {
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(checkoutPage(session));
        return;
      }
      const events = complete(session.id);
      const deliver = async () => {
        for (const event of events) {
          if (!fake.webhookUrl) break;
          const payload = JSON.stringify(event);
          await fetch(fake.webhookUrl, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'stripe-signature': signature(payload, secret),
            },
            body: payload,
          });
        }
      };
      void deliver()
        .catch(() => undefined)
        .then(() => {
          const successUrl = String(session.success_url).replace(
            '{CHECKOUT_SESSION_ID}',
            session.id,
          );
          res.writeHead(303, { location: successUrl }).end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const fake: FakeStripe = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    objects,
    webhookUrl: options.webhookUrl,
    failNext: (status, pathPart) => void failures.push({ status, pathPart }),
    clearFailures: () => void failures.splice(0),
    complete,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
};
