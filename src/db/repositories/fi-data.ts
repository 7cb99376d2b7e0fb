import type { Database, SqlSession } from "../database.ts";
import { isUniqueViolation } from "./errors.ts";
import type { AccountData, TransactionRecord } from "../../domain/fi-data/model.ts";

/** The journey has completed already (or is another consent's). */
export class JourneyExistsError extends Error {
  readonly journeyId: string;
  constructor(journeyId: string) {
    super(`Journey ${journeyId} already exists`);
    this.journeyId = journeyId;
  }
}

export interface JourneyWrite {
  id: string;
  organisationId: string;
  consentId: string;
  configId: string;
  source: string;
}

export interface SnapshotWrite {
  linkedAccountId: string;
  account: AccountData;
  sourceFormat: string;
}

// A refresh keeps the snapshot it replaces, so that a client walking pages with a cursor can
// finish on the data it started on; older ones are deleted.
const RETAINED_SNAPSHOTS = 2;

/** Positions in the answer's order: newest first by timestamp, then txnId, then source order. */
export function answerPositions(transactions: AccountData["transactions"]): number[] {
  const order = transactions
    .map((row, seq) => ({ seq, time: Date.parse(row.transactionTimestamp), txnId: row.txnId }))
    .sort((a, b) => b.time - a.time || (a.txnId < b.txnId ? 1 : a.txnId > b.txnId ? -1 : 0) || b.seq - a.seq);
  const positions = new Array<number>(transactions.length);
  order.forEach((entry, position) => (positions[entry.seq] = position));
  return positions;
}

/** Two refreshes of one account raced for the same version: the transaction is retried. */
const isVersionRace = (error: unknown) =>
  isUniqueViolation(error) && String((error as { constraint?: string }).constraint ?? (error as Error).message).includes("FiDataSnapshot_linkedAccountId_version_key");

/**
 * Stores a new snapshot of one account and makes it the current one in a single statement of
 * data-modifying CTEs: (the journey, for the first account), the version number, the snapshot,
 * its transactions, the account's pointer, and the pruning of old snapshots. Readers never wait:
 * they read the committed pointer. Two refreshes of one account at once collide on the unique
 * (account, version) and the later one is retried by the caller.
 */
async function replaceSnapshot(session: SqlSession, journey: JourneyWrite, write: SnapshotWrite, withJourney: boolean): Promise<string | null> {
  const { account } = write;
  const rows = account.transactions;
  // A journey started by an FI request (PENDING) completes here; a new one is created
  // COMPLETED. One that has completed already, or belongs to another consent, stores nothing.
  const journeyStep = withJourney
    ? `INSERT INTO "Journey" (id, "organisationId", "consentId", status, "configId", source, "completedAt")
       VALUES ($2, $27, $28::uuid, 'COMPLETED', $29, $30, now())
       ON CONFLICT (id) DO UPDATE SET status = 'COMPLETED', "completedAt" = now()
         WHERE "Journey".status = 'PENDING' AND "Journey"."consentId" = EXCLUDED."consentId"
       RETURNING id`
    : `SELECT $2::text AS id WHERE $27::text IS NOT NULL AND $28::text IS NOT NULL AND $29::text IS NOT NULL AND $30::text IS NOT NULL`;
  // Columns travel as arrays and unnest turns them into rows; arrays go as text[] and are cast
  // per row, because PGlite cannot send arrays of an enum type.
  const [snapshot] = await session.query<{ id: string }>(
    `WITH journey AS (
       ${journeyStep}
     ), next AS (
       SELECT COALESCE(MAX(version), 0) + 1 AS version FROM "FiDataSnapshot" WHERE "linkedAccountId" = $1
     ), snapshot AS (
       INSERT INTO "FiDataSnapshot" ("linkedAccountId", "journeyId", version, "fiType", "maskedAccountNumber", balance, currency,
          profile, summary, "transactionsStart", "transactionsEnd", "schemaVersion", "sourceFormat", "transactionCount")
       SELECT $1, journey.id, next.version, $3, $4, $5::numeric, $6, $7::jsonb, $8::jsonb, $9, $10, $11, $12, $13 FROM next, journey
       RETURNING id, version
     ), transactions AS (
       INSERT INTO "FiTransaction" ("snapshotId", seq, position, "txnId", type, amount, "currentBalance", "transactionTimestamp",
          "transactionTimeText", mode, "sourceMode", "sourceType", narration, reference, "valueDate")
       SELECT snapshot.id, t.seq, t.position, t.txn_id, t.type::"TransactionType", t.amount::numeric, t.balance::numeric,
          t.ts::timestamptz, t.ts, t.mode, t.source_mode, t.source_type, t.narration, t.reference, t.value_date
       FROM snapshot, unnest($14::int[], $15::int[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[],
          $22::text[], $23::text[], $24::text[], $25::text[], $26::text[])
         AS t(seq, position, txn_id, type, amount, balance, ts, mode, source_mode, source_type, narration, reference, value_date)
     ), pointer AS (
       UPDATE "LinkedAccount" SET "currentSnapshotId" = snapshot.id, "maskedAccountNumber" = $4, "fiType" = $3
       FROM snapshot WHERE "LinkedAccount".id = $1
     ), pruned AS (
       DELETE FROM "FiDataSnapshot" old USING snapshot
       WHERE old."linkedAccountId" = $1 AND old.version <= snapshot.version - ${RETAINED_SNAPSHOTS}
     )
     SELECT id FROM snapshot`,
    [
      write.linkedAccountId,
      journey.id,
      account.fiType,
      account.maskedAccountNumber,
      account.balance,
      account.currency,
      JSON.stringify(account.profile),
      JSON.stringify(account.summary),
      account.transactionsStart,
      account.transactionsEnd,
      account.schemaVersion,
      write.sourceFormat,
      rows.length,
      rows.map((_, index) => index),
      answerPositions(rows),
      rows.map((row) => row.txnId),
      rows.map((row) => row.type),
      rows.map((row) => row.amount),
      rows.map((row) => row.currentBalance),
      rows.map((row) => row.transactionTimestamp),
      rows.map((row) => row.mode),
      rows.map((row) => row.sourceMode),
      rows.map((row) => row.sourceType),
      rows.map((row) => row.narration),
      rows.map((row) => row.reference),
      rows.map((row) => row.valueDate),
      journey.organisationId,
      journey.consentId,
      journey.configId,
      journey.source,
    ],
  );
  return snapshot?.id ?? null;
}

export class FiDataRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Records a completed journey and replaces the snapshot of each account, all in one
   * transaction: readers see every account's old data or every account's new data.
   */
  async storeJourney(journey: JourneyWrite, snapshots: SnapshotWrite[], within?: (session: SqlSession) => Promise<void>): Promise<string[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#db.transaction(async (session) => {
          const ids: string[] = [];
          for (const [index, write] of snapshots.entries()) {
            const id = await replaceSnapshot(session, journey, write, index === 0);
            if (!id) throw new JourneyExistsError(journey.id);
            ids.push(id);
          }
          if (within) await within(session);
          return ids;
        });
      } catch (error) {
        if (attempt < 5 && isVersionRace(error)) continue;
        throw error;
      }
    }
  }
}

/** What a read of one linked account needs to decide its answer, from one query. */
export interface AccountHead {
  consentState: string;
  consentType: string;
  linkedAccountId: string | null;
  fipId: string | null;
  fipName: string | null;
  snapshotId: string | null;
  fiType: string | null;
  maskedAccountNumber: string | null;
  balance: string | null;
  transactionCount: number | null;
}

export interface SnapshotDetails {
  id: string;
  linkedAccountId: string;
  fiType: string;
  maskedAccountNumber: string;
  balance: string;
  profile: unknown;
  summary: unknown;
  schemaVersion: string;
  transactionsStart: string | null;
  transactionsEnd: string | null;
}

/** A transaction with its place in the answer (0 is the newest). */
export interface StoredTransaction extends TransactionRecord {
  position: number;
}

const TRANSACTION_COLUMNS = `t.position, t."txnId", t.type::text AS type, t.amount::text AS amount,
  t."currentBalance"::text AS "currentBalance", t."transactionTimeText" AS "transactionTimestamp", t.mode,
  t.narration, t.reference, t."valueDate", t."sourceMode", t."sourceType"`;

export class FiDataReader {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The consent (only if it is the organisation's), the link under it, and its current snapshot. */
  async head(organisationId: string, consentId: string, linkReferenceNumber: string): Promise<AccountHead | null> {
    const rows = await this.#db.query<AccountHead>(
      `SELECT c.state::text AS "consentState", c.type::text AS "consentType", la.id AS "linkedAccountId",
              la."fipId", la."fipName", s.id AS "snapshotId", s."fiType", s."maskedAccountNumber",
              s.balance::text AS balance, s."transactionCount"
       FROM "Consent" c
       LEFT JOIN "LinkedAccount" la ON la."consentId" = c.id AND la."linkReferenceNumber" = $3::uuid
       LEFT JOIN "FiDataSnapshot" s ON s.id = la."currentSnapshotId"
       WHERE c.id = $1::uuid AND c."organisationId" = $2`,
      [consentId, organisationId, linkReferenceNumber],
    );
    return rows[0] ?? null;
  }

  async snapshot(snapshotId: string): Promise<SnapshotDetails | null> {
    const rows = await this.#db.query<SnapshotDetails>(
      `SELECT id, "linkedAccountId", "fiType", "maskedAccountNumber", balance::text AS balance, profile, summary,
              "schemaVersion", "transactionsStart", "transactionsEnd"
       FROM "FiDataSnapshot" WHERE id = $1::uuid`,
      [snapshotId],
    );
    return rows[0] ?? null;
  }

  /**
   * Transactions of a snapshot in answer order, from position `after + 1`, at most `limit` of
   * them. One statement, so it sees one consistent state: null when the snapshot is gone (a
   * second refresh removed it), an empty array when it has no transactions there.
   */
  async transactions(snapshotId: string, options: { after?: number; limit?: number } = {}): Promise<StoredTransaction[] | null> {
    const rows = await this.#db.query<StoredTransaction & { present: number }>(
      `SELECT 1 AS present, x.* FROM "FiDataSnapshot" s
       LEFT JOIN LATERAL (
         SELECT ${TRANSACTION_COLUMNS} FROM "FiTransaction" t
         WHERE t."snapshotId" = s.id AND t.position > $2
         ORDER BY t.position
         LIMIT $3
       ) x ON true
       WHERE s.id = $1::uuid`,
      [snapshotId, options.after ?? -1, options.limit ?? null],
    );
    if (rows.length === 0) return null;
    return rows[0]?.txnId == null ? [] : rows;
  }
}
