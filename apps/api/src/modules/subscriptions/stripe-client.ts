import Stripe from 'stripe';
import type { Config } from '../../config';
import { AppError } from '../../platform/errors';

// The card payment provider is Stripe, reached through its official SDK. Without STRIPE_SECRET_KEY
// there is no client and billing answers ERR_PAYMENTS_NOT_CONFIGURED; STRIPE_API_BASE points the SDK
// at another host (a local stand-in in tests and demos).

export const createStripeClient = (config: Pick<Config, 'stripe'>): Stripe | null => {
  const { secretKey, apiBase } = config.stripe;
  if (!secretKey) return null;
  const base = apiBase ? new URL(apiBase) : undefined;
  return new Stripe(secretKey, {
    // The SDK retries network failures and 409/5xx answers itself, with idempotency keys.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Atendi' },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
};

export const requireStripe = (stripe: Stripe | null): Stripe => {
  if (!stripe)
    throw new AppError(
      'ERR_PAYMENTS_NOT_CONFIGURED',
      'Payments are not configured on this server (STRIPE_SECRET_KEY)',
    );
  return stripe;
};

// A provider failure is the provider's (502), never a 500 of ours; its message names what it refused.
export const providerCall = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError)
      throw new AppError('ERR_PAYMENT_PROVIDER', `The payment provider refused: ${error.message}`);
    throw error;
  }
};
