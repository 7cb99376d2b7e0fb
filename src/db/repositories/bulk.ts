import type { Database, SqlSession } from "../database.ts";
import type { BulkRowValues } from "../../domain/bulk/rows.ts";

export type BatchStatus = "FILE_UPLOADED" | "PROCESSING" | "COMPLETED" | "COMPLETED_WITH_ERRORS";
export type RowState = "SCHEDULED" | "REQUESTED" | "DATA_READY" | "FAILED";

export interface BatchRecord {
  id: string;
  organisationId: string;
  referenceId: string;
  status: BatchStatus;
  totalRecords: number;
  globalConfig: unknown;
  createdAt: Date;
  updatedAt: Date;
}

export interface BatchRowRecord {
  id: string;
  rowNumber: number;
  consentId: string;
  fiDataRangeFrom: string | null;
  fiDataRangeTo: string | null;
  configId: string | null;
  state: RowState;
  failureReason: string | null;
  journeyId: string | null;
}

// Rows per INSERT: large enough that a 115,000-row file takes a handful of statements.
const INSERT_CHUNK = 20_000;

const BATCH_COLUMNS = `id, "organisationId", "referenceId", status::text AS status, "totalRecords", "globalConfig", "createdAt", "updatedAt"`;
const ROW_COLUMNS = `id::text AS id, "rowNumber", "consentId", "fiDataRangeFrom", "fiDataRangeTo", "configId", state::text AS state, "failureReason", "journeyId"`;

export class BulkRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The batch and all its rows, in one transaction with `within` (which enqueues its job). */
  createBatch(
    batch: { organisationId: string; referenceId: string; fileName: string | null; fileType: string; globalConfig: unknown; txnid: string },
    rows: readonly BulkRowValues[],
    within: (session: SqlSession, batchId: string) => Promise<void>,
  ): Promise<string> {
    return this.#db.transaction(async (session) => {
      const [created] = await session.query<{ id: string }>(
        `INSERT INTO "BulkBatch" ("organisationId", "referenceId", "fileName", "fileType", "totalRecords", "globalConfig", txnid, "updatedAt")
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, now()) RETURNING id`,
        [batch.organisationId, batch.referenceId, batch.fileName, batch.fileType, rows.length, JSON.stringify(batch.globalConfig), batch.txnid],
      );
      const batchId = (created as { id: string }).id;
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        const chunk = rows.slice(start, start + INSERT_CHUNK);
        await session.query(
          `INSERT INTO "BulkRow" ("batchId", "rowNumber", "consentId", "fiDataRangeFrom", "fiDataRangeTo", "configId")
           SELECT $1::uuid, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[])`,
          [batchId, chunk.map((r) => r.row), chunk.map((r) => r.consentId), chunk.map((r) => r.fiDataRangeFrom), chunk.map((r) => r.fiDataRangeTo), chunk.map((r) => r.configId)],
        );
      }
      await within(session, batchId);
      return batchId;
    });
  }

  async referenceExists(organisationId: string, referenceId: string): Promise<boolean> {
    return (await this.#db.query(`SELECT 1 FROM "BulkBatch" WHERE "organisationId" = $1 AND "referenceId" = $2`, [organisationId, referenceId])).length > 0;
  }

  async find(organisationId: string, by: { id: string } | { referenceId: string }): Promise<BatchRecord | null> {
    const [batch] =
      "id" in by
        ? await this.#db.query<BatchRecord>(`SELECT ${BATCH_COLUMNS} FROM "BulkBatch" WHERE id = $1::uuid AND "organisationId" = $2`, [by.id, organisationId])
        : await this.#db.query<BatchRecord>(`SELECT ${BATCH_COLUMNS} FROM "BulkBatch" WHERE "referenceId" = $1 AND "organisationId" = $2`, [by.referenceId, organisationId]);
    return batch ?? null;
  }

  async byId(batchId: string): Promise<BatchRecord | null> {
    const [batch] = await this.#db.query<BatchRecord>(`SELECT ${BATCH_COLUMNS} FROM "BulkBatch" WHERE id = $1::uuid`, [batchId]);
    return batch ?? null;
  }

  async counts(batchId: string): Promise<Record<RowState, number>> {
    const rows = await this.#db.query<{ state: RowState; count: string | number }>(
      `SELECT state::text AS state, count(*) AS count FROM "BulkRow" WHERE "batchId" = $1::uuid GROUP BY state`,
      [batchId],
    );
    const counts: Record<RowState, number> = { SCHEDULED: 0, REQUESTED: 0, DATA_READY: 0, FAILED: 0 };
    for (const row of rows) counts[row.state] = Number(row.count);
    return counts;
  }

  rowsPage(batchId: string, page: number, pageSize: number): Promise<BatchRowRecord[]> {
    return this.#db.query<BatchRowRecord>(
      `SELECT ${ROW_COLUMNS} FROM "BulkRow" WHERE "batchId" = $1::uuid ORDER BY "rowNumber" LIMIT $2 OFFSET $3`,
      [batchId, pageSize, (page - 1) * pageSize],
    );
  }

  // --- the worker's side ---

  async markProcessing(batchId: string): Promise<void> {
    await this.#db.query(`UPDATE "BulkBatch" SET status = 'PROCESSING', "updatedAt" = now() WHERE id = $1::uuid AND status = 'FILE_UPLOADED'`, [batchId]);
  }

  /**
   * Rows not finished yet after row `after`, in file order: SCHEDULED ones, and REQUESTED ones a
   * stopped worker left behind. (A walk by row number: finished rows are never scanned twice.)
   */
  unfinishedRows(batchId: string, after: number, limit: number): Promise<BatchRowRecord[]> {
    return this.#db.query<BatchRowRecord>(
      `SELECT ${ROW_COLUMNS} FROM "BulkRow" WHERE "batchId" = $1::uuid AND "rowNumber" > $2 AND state IN ('SCHEDULED', 'REQUESTED')
       ORDER BY "rowNumber" LIMIT $3`,
      [batchId, after, limit],
    );
  }

  /**
   * Starts each row's consent journey (PENDING until its data is stored) and moves the row to
   * REQUESTED under it; rows already moved are left as they are.
   */
  async markRequested(organisationId: string, rows: ReadonlyArray<{ id: string; journeyId: string; consentId: string; configId: string | null }>): Promise<void> {
    if (rows.length === 0) return;
    await this.#db.transaction(async (session) => {
      await session.query(
        `INSERT INTO "Journey" (id, "organisationId", "consentId", status, "configId", source)
         SELECT u.journey, $1, u.consent::uuid, 'PENDING', coalesce(u.config, 'default'), 'bulk'
         FROM unnest($2::text[], $3::text[], $4::text[]) AS u(journey, consent, config)
         ON CONFLICT (id) DO NOTHING`,
        [organisationId, rows.map((r) => r.journeyId), rows.map((r) => r.consentId), rows.map((r) => r.configId)],
      );
      await session.query(
        `UPDATE "BulkRow" r SET state = 'REQUESTED', "journeyId" = u.journey, attempts = r.attempts + 1, "updatedAt" = now()
         FROM unnest($1::bigint[], $2::text[]) AS u(id, journey) WHERE r.id = u.id AND r.state = 'SCHEDULED'`,
        [rows.map((r) => r.id), rows.map((r) => r.journeyId)],
      );
    });
  }

  async markFailed(rows: ReadonlyArray<{ id: string; reason: string }>): Promise<void> {
    if (rows.length === 0) return;
    await this.#db.query(
      `UPDATE "BulkRow" r SET state = 'FAILED', "failureReason" = u.reason, "updatedAt" = now()
       FROM unnest($1::bigint[], $2::text[]) AS u(id, reason) WHERE r.id = u.id AND r.state IN ('SCHEDULED', 'REQUESTED')`,
      [rows.map((r) => r.id), rows.map((r) => r.reason)],
    );
  }

  /** Inside the transaction that stores the row's journey: the row is DATA_READY exactly when its data is. */
  async markDataReady(session: SqlSession, rowId: string): Promise<void> {
    await session.query(`UPDATE "BulkRow" SET state = 'DATA_READY', "updatedAt" = now() WHERE id = $1::bigint`, [rowId]);
  }

  async markDataReadyIfStored(rows: ReadonlyArray<{ id: string; journeyId: string }>): Promise<string[]> {
    if (rows.length === 0) return [];
    const done = await this.#db.query<{ id: string }>(
      `UPDATE "BulkRow" r SET state = 'DATA_READY', "updatedAt" = now()
       FROM unnest($1::bigint[], $2::text[]) AS u(id, journey)
       WHERE r.id = u.id AND EXISTS (SELECT 1 FROM "Journey" j WHERE j.id = u.journey AND j.status = 'COMPLETED') RETURNING r.id::text AS id`,
      [rows.map((r) => r.id), rows.map((r) => r.journeyId)],
    );
    return done.map((row) => row.id);
  }

  /** Closes the batch once no row is left to do; returns its final status, or null if rows remain. */
  async finish(batchId: string): Promise<BatchStatus | null> {
    const [result] = await this.#db.query<{ status: BatchStatus | null }>(
      `UPDATE "BulkBatch" b SET status = CASE WHEN EXISTS (SELECT 1 FROM "BulkRow" WHERE "batchId" = b.id AND state = 'FAILED')
                                           THEN 'COMPLETED_WITH_ERRORS'::"BatchStatus" ELSE 'COMPLETED'::"BatchStatus" END,
              "updatedAt" = now()
       WHERE b.id = $1::uuid AND NOT EXISTS (SELECT 1 FROM "BulkRow" WHERE "batchId" = b.id AND state IN ('SCHEDULED', 'REQUESTED'))
       RETURNING b.status::text AS status`,
      [batchId],
    );
    return result?.status ?? null;
  }
}
