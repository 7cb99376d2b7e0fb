import { randomBytes } from "node:crypto";
import type { PgBoss } from "pg-boss";
import { Webhook } from "standardwebhooks";
import type { SqlSession } from "../db/database.ts";
import type { DeliveryRecord, WebhookRepository } from "../db/repositories/webhooks.ts";
import { executorFor } from "../jobs/boss.ts";
import { conflict, notFound } from "./errors.ts";
import type { IngestResult } from "./fi-data/ingestion.ts";

export const DELIVERY_QUEUE = "webhook-delivery";

export interface WebhookSettings {
  /** First retry delay; later ones double (with jitter) up to maxDelaySeconds. */
  retryDelaySeconds: number;
  retryDelayMaxSeconds: number;
  /** After this long since the event (or its replay), a failing delivery is given up. */
  horizonSeconds: number;
  timeoutMs: number;
  pollingIntervalSeconds: number;
}

interface DeliveryJob {
  deliveryId: string;
  /** ISO time after which a failing delivery is given up. */
  giveUpAfter: string;
}

export interface DeliveryView {
  deliveryId: string;
  organisationId: string;
  eventType: string;
  targetUrl: string;
  status: DeliveryRecord["status"];
  attemptCount: number;
  lastResponseCode: number | null;
  lastError: string | null;
  payload: Record<string, unknown>;
  createdAt: string;
  deliveredAt: string | null;
  attempts: Array<{ attemptNumber: number; startedAt: string; latencyMs: number; responseCode: number | null; error: string | null; succeeded: boolean }>;
}

function view(record: DeliveryRecord): DeliveryView {
  return {
    deliveryId: record.id,
    organisationId: record.organisationId,
    eventType: record.eventType,
    targetUrl: record.targetUrl,
    status: record.status,
    attemptCount: record.attemptCount,
    lastResponseCode: record.lastResponseCode,
    lastError: record.lastError,
    payload: record.payload as Record<string, unknown>,
    createdAt: record.createdAt.toISOString(),
    deliveredAt: record.deliveredAt?.toISOString() ?? null,
    attempts: record.attempts.map((attempt) => ({ ...attempt, startedAt: attempt.startedAt.toISOString() })),
  };
}

/** Thrown by the delivery job so that pg-boss retries it with backoff and jitter. */
class RetryableDeliveryError extends Error {}

const NO_URL = "the organisation has no webhook URL";

/**
 * DATA_READY webhooks: recorded in the transaction that stores the data, delivered by a pg-boss
 * worker, signed per Standard Webhooks, retried on network errors, timeouts, 5xx and 429 with
 * exponential backoff and jitter until the horizon, every attempt recorded.
 */
export class WebhookService {
  readonly #repo: WebhookRepository;
  readonly #settings: WebhookSettings;
  #boss: PgBoss | undefined;

  constructor(repo: WebhookRepository, settings: WebhookSettings) {
    this.#repo = repo;
    this.#settings = settings;
  }

  #giveUpAfter(): string {
    return new Date(Date.now() + this.#settings.horizonSeconds * 1000).toISOString();
  }

  #jobOptions() {
    return {
      retryLimit: 1000,
      retryDelay: this.#settings.retryDelaySeconds,
      retryBackoff: true,
      retryDelayMax: this.#settings.retryDelayMaxSeconds,
    };
  }

  /** Enqueues deliveries on `boss`; with `work`, this instance also delivers them. */
  async start(boss: PgBoss, work = true): Promise<void> {
    this.#boss = boss;
    await boss.createQueue(DELIVERY_QUEUE, this.#jobOptions());
    if (!work) return;
    await boss.work<DeliveryJob>(
      DELIVERY_QUEUE,
      // One job per call: a failure retries only its own delivery.
      { pollingIntervalSeconds: this.#settings.pollingIntervalSeconds, batchSize: 1, localConcurrency: 4 },
      async ([job]) => {
        if (job) await this.deliver(job.data);
      },
    );
  }

  /** Records one DATA_READY event per account of a stored journey; runs inside its transaction. */
  async recordDataReady(session: SqlSession, result: IngestResult, consentID: string): Promise<void> {
    if (!this.#boss) throw new Error("webhooks are not started");
    const timestamp = new Date().toISOString();
    const deliveries = result.accounts.map((account) => ({
      id: `msg_${randomBytes(16).toString("hex")}`,
      payload: {
        type: "DATA_READY",
        timestamp,
        data: {
          organisationId: result.organisationId,
          consentID,
          journeyID: result.journeyID,
          linkReferenceNumber: account.linkReferenceNumber,
          fipId: account.fipId,
          fiType: account.fiType,
        },
      },
    }));
    const recorded = await this.#repo.insertInTransaction(session, result.organisationId, "DATA_READY", deliveries, NO_URL);
    const jobs = recorded.filter((delivery) => delivery.targetUrl !== "").map((delivery) => ({ data: { deliveryId: delivery.id, giveUpAfter: this.#giveUpAfter() } satisfies DeliveryJob, ...this.#jobOptions() }));
    if (jobs.length > 0) await this.#boss.insert(DELIVERY_QUEUE, jobs, { db: executorFor(session) } as Parameters<PgBoss["insert"]>[2]);
  }

  /** One delivery attempt (a pg-boss job). Throws to have pg-boss retry it later. */
  async deliver(job: DeliveryJob): Promise<void> {
    const delivery = await this.#repo.find(job.deliveryId);
    if (!delivery || delivery.status !== "PENDING") return;
    const target = await this.#repo.webhookTarget(delivery.organisationId);
    if (!target?.url) {
      await this.#repo.markFailed(delivery.id, NO_URL);
      return;
    }
    const body = JSON.stringify(delivery.payload);
    const startedAt = new Date();
    const signature = new Webhook(target.secret).sign(delivery.id, startedAt, body);
    let responseCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(target.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "fiu-data-service-webhooks/1",
          "webhook-id": delivery.id,
          "webhook-timestamp": String(Math.floor(startedAt.getTime() / 1000)),
          "webhook-signature": signature,
        },
        body,
        signal: AbortSignal.timeout(this.#settings.timeoutMs),
        redirect: "manual",
      });
      responseCode = response.status;
      await response.body?.cancel().catch(() => {});
      if (!response.ok) error = `HTTP ${response.status}`;
    } catch (cause) {
      const reason = cause as Error & { cause?: { code?: string } };
      error = reason.name === "TimeoutError" ? `timed out after ${this.#settings.timeoutMs} ms` : (reason.cause?.code ?? reason.message);
    }
    const latencyMs = Date.now() - startedAt.getTime();
    const succeeded = responseCode !== null && responseCode >= 200 && responseCode < 300;
    const retryable = !succeeded && (responseCode === null || responseCode >= 500 || responseCode === 429);
    const withinHorizon = Date.now() < Date.parse(job.giveUpAfter);
    const status = succeeded ? "DELIVERED" : retryable && withinHorizon ? "PENDING" : "FAILED";
    const finalError = status === "FAILED" && retryable ? `${error}; gave up after ${delivery.attemptCount + 1} attempts` : error;
    await this.#repo.recordAttempt(delivery.id, {
      attemptNumber: delivery.attemptCount + 1,
      startedAt,
      latencyMs,
      responseCode,
      error: finalError,
      succeeded,
      status,
    });
    if (status === "PENDING") throw new RetryableDeliveryError(`delivery ${delivery.id}: ${error}`);
  }

  async list(organisationId: string, options: { status?: DeliveryRecord["status"] | undefined; limit: number }): Promise<DeliveryView[]> {
    return (await this.#repo.list(organisationId, options)).map(view);
  }

  async get(deliveryId: string): Promise<DeliveryView> {
    const record = await this.#repo.find(deliveryId);
    if (!record) throw notFound(`Webhook delivery ${deliveryId} does not exist`);
    return view(record);
  }

  /** Sends the same event again, to the organisation's current URL, with a new horizon. */
  async replay(deliveryId: string): Promise<DeliveryView> {
    const record = await this.#repo.find(deliveryId);
    if (!record) throw notFound(`Webhook delivery ${deliveryId} does not exist`);
    if (record.status === "PENDING") throw conflict(`Webhook delivery ${deliveryId} is still being delivered`);
    if (!this.#boss) throw new Error("webhooks are not started");
    const target = await this.#repo.webhookTarget(record.organisationId);
    if (!target?.url) {
      await this.#repo.markFailed(record.id, NO_URL);
      return this.get(deliveryId);
    }
    await this.#repo.reopen(record.id, target.url);
    await this.#boss.send(DELIVERY_QUEUE, { deliveryId, giveUpAfter: this.#giveUpAfter() } satisfies DeliveryJob, this.#jobOptions());
    return this.get(deliveryId);
  }
}
