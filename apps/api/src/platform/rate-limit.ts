import type { Redis } from 'ioredis';

export type RateLimiter = {
  // Counts one hit on `key`; answers how many hits the window holds and the seconds until it resets.
  hit: (key: string, windowSeconds: number) => Promise<{ count: number; resetIn: number }>;
  peek: (key: string) => Promise<{ count: number; resetIn: number }>;
  reset: (key: string) => Promise<void>;
};

export const createMemoryRateLimiter = (now: () => number = Date.now): RateLimiter => {
  const buckets = new Map<string, { count: number; resetAt: number }>();
  const live = (key: string) => {
    const bucket = buckets.get(key);
    if (bucket && bucket.resetAt <= now()) {
      buckets.delete(key);
      return undefined;
    }
    return bucket;
  };
  return {
    async hit(key, windowSeconds) {
      if (buckets.size > 50_000) {
        for (const k of buckets.keys()) live(k);
      }
      const bucket = live(key) ?? { count: 0, resetAt: now() + windowSeconds * 1000 };
      bucket.count += 1;
      buckets.set(key, bucket);
      return { count: bucket.count, resetIn: Math.ceil((bucket.resetAt - now()) / 1000) };
    },
    async peek(key) {
      const bucket = live(key);
      return bucket
        ? { count: bucket.count, resetIn: Math.ceil((bucket.resetAt - now()) / 1000) }
        : { count: 0, resetIn: 0 };
    },
    async reset(key) {
      buckets.delete(key);
    },
  };
};

// Shared counters for several API nodes.
export const createRedisRateLimiter = (redis: Redis): RateLimiter => ({
  async hit(key, windowSeconds) {
    const k = `rl:${key}`;
    const [[, count], [, ttl]] = (await redis.multi().incr(k).ttl(k).exec()) as [
      [null, number],
      [null, number],
    ];
    if (ttl < 0) {
      await redis.expire(k, windowSeconds);
      return { count, resetIn: windowSeconds };
    }
    return { count, resetIn: ttl };
  },
  async peek(key) {
    const k = `rl:${key}`;
    const [[, value], [, ttl]] = (await redis.multi().get(k).ttl(k).exec()) as [
      [null, string | null],
      [null, number],
    ];
    return { count: value ? Number(value) : 0, resetIn: Math.max(ttl, 0) };
  },
  async reset(key) {
    await redis.del(`rl:${key}`);
  },
});
