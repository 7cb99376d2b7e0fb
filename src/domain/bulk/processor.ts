import type { PgBoss } from "pg-boss";
import { AaError, type AaConnector } from "../../aa/connector.ts";
import type { BatchRowRecord, BulkRepository } from "../../db/repositories/bulk.ts";
import type { ConsentRepository, ConsentWithLinks } from "../../db/repositories/consents.ts";
import { isoDate } from "../../serialization/values.ts";
import { ServiceError } from "../errors.ts";
import type { IngestionService } from "../fi-data/ingestion.ts";
import { BULK_QUEUE } from "./service.ts";

export interface BulkProcessorSettings {
  /** Rows read at a time. */
  chunkSize: number;
  /** Rows requested from the AA at once. */
  concurrency: number;
  /** pg-boss heartbeat: a worker that stops beating for this long is presumed dead and its batch retried. */
  heartbeatSeconds: number;
  pollingIntervalSeconds: number;
  /** Range of rows without one: this many months up to yesterday. */
  defaultRangeMonths: number;
}

/** The journey of a row: the same on every attempt, so a row's data can only ever be stored once. */
export const journeyOfRow = (batchId: string, row: number) => `bulk-${batchId}-${row}`;

class Halted extends Error {}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/**
 * Takes each uploaded batch through FILE_UPLOADED -> PROCESSING -> COMPLETED |
 * COMPLETED_WITH_ERRORS, and each row through SCHEDULED -> REQUESTED -> DATA_READY | FAILED.
 * Idempotent: a row's journey id is fixed by its batch and number, and storing its data marks it
 * DATA_READY in the same transaction, so a worker stopped anywhere and started again finishes the
 * batch with no row lost or stored twice.
 */
export class BulkProcessor {
  readonly #repo: BulkRepository;
  readonly #consents: ConsentRepository;
  #aa: AaConnector;
  readonly #ingestion: IngestionService;
  readonly #settings: BulkProcessorSettings;
  #halted = false;

  constructor(repo: BulkRepository, consents: ConsentRepository, aa: AaConnector, ingestion: IngestionService, settings: BulkProcessorSettings) {
    this.#repo = repo;
    this.#consents = consents;
    this.#aa = aa;
    this.#ingestion = ingestion;
    this.#settings = settings;
  }

  /** Creates the queue; with `work`, this instance also processes batches. */
  async start(boss: PgBoss, work = true): Promise<void> {
    await boss.createQueue(BULK_QUEUE, {
      retryLimit: 100,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 300,
      heartbeatSeconds: this.#settings.heartbeatSeconds,
      expireInSeconds: 24 * 3600,
    });
    if (!work) return;
    await boss.work<{ batchId: string }>(BULK_QUEUE, { pollingIntervalSeconds: this.#settings.pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
      if (job) await this.process(job.data.batchId);
    });
  }

  /** Replaces the Account Aggregator connector (the simulator is the first implementation). */
  useConnector(connector: AaConnector): void {
    this.#aa = connector;
  }

  /** Stops taking rows at the next boundary, as if the process had died (for tests). */
  halt(): void {
    this.#halted = true;
  }

  async process(batchId: string): Promise<void> {
    const batch = await this.#repo.byId(batchId);
    if (!batch || batch.status === "COMPLETED" || batch.status === "COMPLETED_WITH_ERRORS") return;
    await this.#repo.markProcessing(batchId);
    let after = 0;
    for (;;) {
      if (this.#halted) throw new Halted("the bulk worker was halted");
      const rows = await this.#repo.unfinishedRows(batchId, after, this.#settings.chunkSize);
      if (rows.length === 0) break;
      await this.#chunk(batch.organisationId, batchId, rows);
      after = (rows.at(-1) as BatchRowRecord).rowNumber;
    }
    // Rows of this walk that failed to finish (an error thrown mid-chunk) make the job retry.
    if ((await this.#repo.finish(batchId)) === null) throw new Error(`batch ${batchId} still has unfinished rows`);
  }

  async #chunk(organisationId: string, batchId: string, rows: BatchRowRecord[]): Promise<void> {
    // Rows a stopped worker had requested: those whose journey was stored are done already.
    const requested = rows.filter((row) => row.state === "REQUESTED").map((row) => ({ id: row.id, journeyId: row.journeyId ?? journeyOfRow(batchId, row.rowNumber) }));
    const alreadyDone = new Set(await this.#repo.markDataReadyIfStored(requested));

    const consents = new Map<string, ConsentWithLinks>();
    for (const consent of await this.#consents.findManyWithLinks([...new Set(rows.map((row) => row.consentId))], organisationId)) consents.set(consent.id, consent);

    const failed: Array<{ id: string; reason: string }> = [];
    const toRequest: Array<{ row: BatchRowRecord; consent: ConsentWithLinks; journeyId: string }> = [];
    for (const row of rows) {
      if (alreadyDone.has(row.id)) continue;
      const consent = consents.get(row.consentId);
      // Another organisation's consent is reported as unknown: tenants never learn of each other.
      if (!consent) failed.push({ id: row.id, reason: "unknown consent: no consent with this id for the organisation" });
      else if (consent.state !== "ACTIVE") failed.push({ id: row.id, reason: `consent not ACTIVE (${consent.state})` });
      else toRequest.push({ row, consent, journeyId: row.journeyId ?? journeyOfRow(batchId, row.rowNumber) });
    }
    await this.#repo.markFailed(failed);
    await this.#repo.markRequested(
      organisationId,
      toRequest.map(({ row, consent, journeyId }) => ({ id: row.id, journeyId, consentId: consent.id, configId: row.configId })),
    );

    const aaFailures: Array<{ id: string; reason: string }> = [];
    await inParallel(toRequest, this.#settings.concurrency, async ({ row, consent, journeyId }) => {
      if (this.#halted) return;
      const reason = await this.#request(organisationId, row, consent, journeyId);
      if (reason) aaFailures.push({ id: row.id, reason });
    });
    await this.#repo.markFailed(aaFailures);
  }

  /** Requests one row's data and stores it; the reason it failed, or null. */
  async #request(organisationId: string, row: BatchRowRecord, consent: ConsentWithLinks, journeyId: string): Promise<string | null> {
    const to = row.fiDataRangeTo ? isoDate(row.fiDataRangeTo, "fiDataRangeTo") : new Date(Date.now() - 86400_000).toISOString().slice(0, 10);
    const from = row.fiDataRangeFrom
      ? isoDate(row.fiDataRangeFrom, "fiDataRangeFrom")
      : new Date(Date.UTC(Number(to.slice(0, 4)), Number(to.slice(5, 7)) - 1 - this.#settings.defaultRangeMonths, Number(to.slice(8, 10)) + 1)).toISOString().slice(0, 10);
    try {
      const accounts = await this.#aa.requestFiData({ organisationId, consentId: consent.id, links: consent.linkedAccounts, from, to });
      await this.#ingestion.ingest({
        consentID: consent.id,
        journeyID: journeyId,
        configId: row.configId ?? undefined,
        source: "bulk",
        accounts,
        alsoInTransaction: (session) => this.#repo.markDataReady(session, row.id),
      });
      return null;
    } catch (error) {
      if (error instanceof AaError) return `AA error: ${error.message}`;
      if (error instanceof ServiceError) {
        // The journey exists: an earlier attempt stored it (and marked the row with it).
        if (error.status === 409 && error.message.startsWith(`Journey ${journeyId}`)) return null;
        return error.message;
      }
      throw error;
    }
  }
}
