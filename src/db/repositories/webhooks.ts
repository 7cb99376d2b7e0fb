import type { PrismaClient } from "../../../generated/prisma/client.ts";
import type { SqlSession } from "../database.ts";

export interface DeliveryRecord {
  id: string;
  organisationId: string;
  eventType: string;
  payload: unknown;
  targetUrl: string;
  status: "PENDING" | "DELIVERED" | "FAILED";
  attemptCount: number;
  lastResponseCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  attempts: Array<{
    attemptNumber: number;
    startedAt: Date;
    latencyMs: number;
    responseCode: number | null;
    error: string | null;
    succeeded: boolean;
  }>;
}

export interface AttemptOutcome {
  attemptNumber: number;
  startedAt: Date;
  latencyMs: number;
  responseCode: number | null;
  error: string | null;
  succeeded: boolean;
  /** The delivery's status after this attempt. */
  status: "PENDING" | "DELIVERED" | "FAILED";
}

const ATTEMPT_FIELDS = { attemptNumber: true, startedAt: true, latencyMs: true, responseCode: true, error: true, succeeded: true } as const;

export class WebhookRepository {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  /**
   * Records one event per payload inside the caller's transaction (events commit with their
   * cause), addressed to the organisation's webhook URL as it is now: without one, an event is
   * FAILED at once. Answers each delivery's id and URL.
   */
  async insertInTransaction(
    session: SqlSession,
    organisationId: string,
    eventType: string,
    deliveries: ReadonlyArray<{ id: string; payload: unknown }>,
    noUrlReason: string,
  ): Promise<Array<{ id: string; targetUrl: string }>> {
    return session.query<{ id: string; targetUrl: string }>(
      `INSERT INTO "WebhookDelivery" (id, "organisationId", "eventType", payload, "targetUrl", status, "lastError", "updatedAt")
       SELECT d.id, o.id, $2, d.payload::jsonb, coalesce(o."webhookUrl", ''),
              CASE WHEN o."webhookUrl" IS NULL THEN 'FAILED' ELSE 'PENDING' END::"DeliveryStatus",
              CASE WHEN o."webhookUrl" IS NULL THEN $5 END, now()
       FROM "Organisation" o, unnest($3::text[], $4::text[]) AS d(id, payload)
       WHERE o.id = $1
       RETURNING id, "targetUrl"`,
      [organisationId, eventType, deliveries.map((d) => d.id), deliveries.map((d) => JSON.stringify(d.payload)), noUrlReason],
    );
  }

  find(id: string): Promise<DeliveryRecord | null> {
    return this.#prisma.webhookDelivery.findUnique({
      where: { id },
      include: { attempts: { select: ATTEMPT_FIELDS, orderBy: { attemptNumber: "asc" } } },
    }) as Promise<DeliveryRecord | null>;
  }

  list(organisationId: string, options: { status?: DeliveryRecord["status"] | undefined; limit: number }): Promise<DeliveryRecord[]> {
    return this.#prisma.webhookDelivery.findMany({
      where: { organisationId, ...(options.status ? { status: options.status } : {}) },
      include: { attempts: { select: ATTEMPT_FIELDS, orderBy: { attemptNumber: "asc" } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: options.limit,
    }) as Promise<DeliveryRecord[]>;
  }

  /** Records one attempt and the delivery's new state together. */
  async recordAttempt(deliveryId: string, outcome: AttemptOutcome): Promise<void> {
    await this.#prisma.$transaction([
      this.#prisma.webhookAttempt.create({
        data: {
          deliveryId,
          attemptNumber: outcome.attemptNumber,
          startedAt: outcome.startedAt,
          latencyMs: outcome.latencyMs,
          responseCode: outcome.responseCode,
          error: outcome.error,
          succeeded: outcome.succeeded,
        },
      }),
      this.#prisma.webhookDelivery.update({
        where: { id: deliveryId },
        data: {
          attemptCount: outcome.attemptNumber,
          lastResponseCode: outcome.responseCode,
          lastError: outcome.error,
          status: outcome.status,
          ...(outcome.succeeded ? { deliveredAt: new Date() } : {}),
        },
      }),
    ]);
  }

  async markFailed(deliveryId: string, reason: string): Promise<void> {
    await this.#prisma.webhookDelivery.update({ where: { id: deliveryId }, data: { status: "FAILED", lastError: reason } });
  }

  async reopen(deliveryId: string, targetUrl: string): Promise<void> {
    await this.#prisma.webhookDelivery.update({ where: { id: deliveryId }, data: { status: "PENDING", targetUrl, lastError: null } });
  }

  async webhookTarget(organisationId: string): Promise<{ url: string | null; secret: string } | null> {
    const organisation = await this.#prisma.organisation.findUnique({ where: { id: organisationId }, select: { webhookUrl: true, webhookSecret: true } });
    return organisation ? { url: organisation.webhookUrl, secret: organisation.webhookSecret } : null;
  }
}
