import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { AppError } from './errors';

export type Limiter = RateLimiterAbstract;

// 14 days: the memory store expires keys with a timer, and Node's timers end at 24.8 days.
export const KNOWN_ADDRESS_SECONDS = 14 * 24 * 3600;

// Every attempt counter of the API. Each is one atomic increment that sets its expiry with it
// (rate-limiter-flexible: a Lua script on Redis, a synchronous update in memory), so parallel
// requests cannot all read "under the limit", and no counter outlives its window.
export type RateLimits = {
  // Failed logins per client address and email, per address over all emails (3×), and per email
  // over all addresses (10×: past it only a known device or address may still try, so nobody
  // elsewhere can lock an account's owner out).
  loginPair: Limiter;
  loginIp: Limiter;
  loginEmail: Limiter;
  // Addresses that signed in to an email, remembered for KNOWN_ADDRESS_SECONDS.
  loginKnown: Limiter;
  // Second-factor codes tried per user (as many as passwords per address and email).
  twoFactor: Limiter;
  // Single sign-on round trips per client address (starts, and callbacks that fail).
  sso: Limiter;
  // Reset-code mails per email; reset attempts per email; both per client address (one budget).
  forgotEmail: Limiter;
  resetEmail: Limiter;
  forgotIp: Limiter;
  // Public sign-ups per client address.
  signupIp: Limiter;
  // External messages API calls per connection token, per minute.
  // REST API calls per API token, per minute.
  apiToken: Limiter;
  externalApi: Limiter;
  // KiB of files a user (or a connection token) uploads, per minute.
  uploadKib: Limiter;
  // The agents' co-pilot (reply suggestions, summaries) per user, per minute: each is a model call
  // the company pays for.
  copilot: Limiter;
};

// With Redis (several API nodes) the counters are shared; without it the API is one process
// (README: several nodes need REDIS_URL), so process memory is exact. If Redis fails, each node
// falls back to its own memory counters rather than answering 500.
export const createRateLimits = (options: {
  redis?: Redis;
  loginLimit: number;
  windowSeconds: number;
  externalApiLimit?: number;
  apiTokenLimit?: number;
  uploadLimitMb?: number;
}): RateLimits => {
  const make = (name: string, points: number, duration: number): Limiter => {
    const keyPrefix = `rl:${name}`;
    const memory = new RateLimiterMemory({ keyPrefix, points, duration });
    if (!options.redis) return memory;
    return new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix,
      points,
      duration,
      insuranceLimiter: memory,
    });
  };
  const { loginLimit, windowSeconds } = options;
  return {
    loginPair: make('login-pair', loginLimit, windowSeconds),
    loginIp: make('login-ip', loginLimit * 3, windowSeconds),
    loginEmail: make('login-email', loginLimit * 10, windowSeconds),
    loginKnown: make('login-known', 1, KNOWN_ADDRESS_SECONDS),
    twoFactor: make('two-factor', loginLimit, windowSeconds),
    sso: make('sso', loginLimit * 3, windowSeconds),
    forgotEmail: make('forgot', 5, windowSeconds),
    resetEmail: make('reset', 10, windowSeconds),
    forgotIp: make('forgot-ip', 20, windowSeconds),
    signupIp: make('signup', 20, 3600),
    externalApi: make('external-api', options.externalApiLimit ?? 60, 60),
    apiToken: make('api-token', options.apiTokenLimit ?? 600, 60),
    uploadKib: make('upload-kib', (options.uploadLimitMb ?? 100) * 1024, 60),
    copilot: make('copilot', 20, 60),
  };
};

// Counts one attempt (or `points`, e.g. megabytes); the attempt past the limit is refused with 429
// and Retry-After, unless `unless` (asked only then) says this caller may go on anyway.
export const consume = async (
  limiter: Limiter,
  key: string,
  message: string,
  options: { points?: number; unless?: () => Promise<boolean> } = {},
) => {
  const { points = 1, unless } = options;
  try {
    return await limiter.consume(key, points);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    if (unless && (await unless())) return error;
    throw new AppError('ERR_TOO_MANY_REQUESTS', message, {
      headers: { 'Retry-After': String(Math.max(Math.ceil(error.msBeforeNext / 1000), 1)) },
    });
  }
};
