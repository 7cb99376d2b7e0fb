import rateLimit, { type FastifyRateLimitStore } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Redis } from "ioredis";
import type { RateLimitPolicy } from "../domain/rate-limits.ts";

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

// INCR the window's counter, start its expiry on the first hit, answer the count and the time left.
const INCREMENT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/**
 * One counter per organisation across all its operations. @fastify/rate-limit keeps a separate
 * store per route (its `child`); this store is its own child, so every route shares it.
 */
function sharedStore(redis: Redis | undefined, namespace: string) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const store: FastifyRateLimitStore = {
    incr(key: string, callback: Callback, timeWindow: number) {
      if (redis) {
        redis
          .eval(INCREMENT, 1, `${namespace}${key}`, String(timeWindow))
          .then((result) => {
            const [current, ttl] = result as [number, number];
            callback(null, { current, ttl });
          })
          .catch((error: Error) => callback(error));
        return;
      }
      const now = Date.now();
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        if (windows.size > 50_000) for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
        window = { count: 0, resetAt: now + timeWindow };
        windows.set(key, window);
      }
      window.count++;
      callback(null, { current: window.count, ttl: window.resetAt - now });
    },
    child: () => store,
  };
  return store;
}

const organisationOf = (request: FastifyRequest) => request.tenant?.organisationId ?? `ip:${request.ip}`;

/**
 * Registers @fastify/rate-limit (before the routes, which opt in through their config). The
 * counters live in Redis when REDIS_URL is set, so that several instances share one budget, and
 * in memory otherwise. If Redis cannot be reached, requests are let through (and logged): the
 * limiter protects capacity, it must not take the service down with it.
 */
export async function registerRateLimit(app: FastifyInstance, redisUrl: string | undefined, namespace: string) {
  const redis = redisUrl
    ? new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, enableOfflineQueue: false })
    : undefined;
  if (redis) {
    redis.on("error", (error) => app.log.warn({ err: error }, "rate-limit store (Redis) unavailable; requests are not limited meanwhile"));
    app.addHook("onClose", async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  const store = sharedStore(redis, namespace);
  await app.register(rateLimit, {
    global: false,
    // The plugin constructs its store from this class; every instance is the one shared store.
    store: function SharedStore() {
      return store;
    } as unknown as NonNullable<Parameters<typeof rateLimit>[1]>["store"],
    skipOnError: true,
  });
}

/** The route config that puts an operation under its organisation's budget. */
export function rateLimitedRoute(policy: RateLimitPolicy) {
  return {
    // After authentication (onRequest), so the budget is the verified organisation's.
    hook: "preValidation" as const,
    keyGenerator: organisationOf,
    max: async (request: FastifyRequest) => (await policy.budget(organisationOf(request))).max,
    timeWindow: async (request: FastifyRequest) => (await policy.budget(organisationOf(request))).windowMs,
    errorResponseBuilder: (_request: FastifyRequest, context: { statusCode: number }) =>
      Object.assign(new Error("Too many requests"), { statusCode: context.statusCode, code: "RateLimitExceeded" }),
  };
}
