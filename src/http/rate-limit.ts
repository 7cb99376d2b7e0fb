import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Redis } from "ioredis";
import type { RateLimitPolicy } from "../domain/rate-limits.ts";

/** Every tenant operation shares one budget per organisation. */
const GROUP = "data-operations";

const organisationOf = (request: FastifyRequest) => request.tenant?.organisationId ?? `ip:${request.ip}`;

/**
 * Registers @fastify/rate-limit (before the routes, which opt in through their config). The
 * counters live in Redis when REDIS_URL is set, so that several instances share one budget, and
 * in memory otherwise. If Redis cannot be reached, requests are let through (and logged): the
 * limiter protects capacity, it must not take the service down with it.
 */
export async function registerRateLimit(app: FastifyInstance, redisUrl: string | undefined) {
  const redis = redisUrl
    ? new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  if (redis) {
    redis.on("error", (error) => app.log.warn({ err: error }, "rate-limit store (Redis) unavailable; requests are not limited meanwhile"));
    app.addHook("onClose", async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: "fiu-rate-limit:" } : {}),
    skipOnError: true,
  });
}

/** The route config that puts an operation under its organisation's budget. */
export function rateLimitedRoute(policy: RateLimitPolicy) {
  return {
    groupId: GROUP,
    // After authentication (onRequest), so the budget is the verified organisation's.
    hook: "preValidation" as const,
    keyGenerator: organisationOf,
    max: async (request: FastifyRequest) => (await policy.budget(organisationOf(request))).max,
    timeWindow: async (request: FastifyRequest) => (await policy.budget(organisationOf(request))).windowMs,
    errorResponseBuilder: (_request: FastifyRequest, context: { statusCode: number; ttl: number }) =>
      Object.assign(new Error("Too many requests"), { statusCode: context.statusCode, code: "RateLimitExceeded", retryAfterMs: context.ttl }),
  };
}
