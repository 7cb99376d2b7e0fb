import type { TenantService } from "./tenants.ts";

export interface Budget {
  max: number;
  windowMs: number;
}

/**
 * Each organisation's budget on the data operations: its own setting, or the deployment's
 * default. Looked up once per organisation and remembered briefly, so that limiting costs no
 * database read per request; a change through the operator API applies within `ttlMs`.
 */
export class RateLimitPolicy {
  readonly #tenants: TenantService;
  readonly #fallback: Budget;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, { budget: Budget; expiresAt: number }>();

  constructor(tenants: TenantService, fallback: { max: number; windowSeconds: number }, ttlMs = 30_000) {
    this.#tenants = tenants;
    this.#fallback = { max: fallback.max, windowMs: fallback.windowSeconds * 1000 };
    this.#ttlMs = ttlMs;
  }

  async budget(organisationId: string): Promise<Budget> {
    const cached = this.#cache.get(organisationId);
    if (cached && cached.expiresAt > Date.now()) return cached.budget;
    const organisation = await this.#tenants.getOrganisation(organisationId).catch(() => null);
    const budget = organisation?.rateLimit
      ? { max: organisation.rateLimit.max, windowMs: organisation.rateLimit.windowSeconds * 1000 }
      : this.#fallback;
    this.#cache.set(organisationId, { budget, expiresAt: Date.now() + this.#ttlMs });
    return budget;
  }

  forget(organisationId: string): void {
    this.#cache.delete(organisationId);
  }
}
