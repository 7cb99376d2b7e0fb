import type { Database, SqlSession } from "../database.ts";
import type { AccountData } from "../../domain/fi-data/model.ts";

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

async function insertTransactions(session: SqlSession, snapshotId: string, account: AccountData): Promise<void> {
  const rows = account.transactions;
  if (rows.length === 0) return;
  const positions = answerPositions(rows);
  // One statement per account: the columns travel as arrays and unnest turns them into rows.
  // (Arrays go as text[] and are cast per row: PGlite cannot send arrays of an enum type.)
  await session.query(
    `INSERT INTO "FiTransaction" ("snapshotId", seq, position, "txnId", type, amount, "currentBalance", "transactionTimestamp",
        "transactionTimeText", mode, "sourceMode", "sourceType", narration, reference, "valueDate")
     SELECT $1::uuid, t.seq, t.position, t.txn_id, t.type::"TransactionType", t.amount::numeric, t.balance::numeric, t.ts::timestamptz,
        t.ts_text, t.mode, t.source_mode, t.source_type, t.narration, t.reference, t.value_date
     FROM unnest($2::int[], $15::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
        $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
       AS t(seq, position, txn_id, type, amount, balance, ts, ts_text, mode, source_mode, source_type, narration, reference, value_date)`,
    [
      snapshotId,
      rows.map((_, index) => index),
      rows.map((row) => row.txnId),
      rows.map((row) => row.type),
      rows.map((row) => row.amount),
      rows.map((row) => row.currentBalance),
      rows.map((row) => row.transactionTimestamp),
      rows.map((row) => row.transactionTimestamp),
      rows.map((row) => row.mode),
      rows.map((row) => row.sourceMode),
      rows.map((row) => row.sourceType),
      rows.map((row) => row.narration),
      rows.map((row) => row.reference),
      rows.map((row) => row.valueDate),
      positions,
    ],
  );
}

async function replaceSnapshot(session: SqlSession, journeyId: string, write: SnapshotWrite): Promise<string> {
  const { account } = write;
  // Serialises refreshes of one account; readers are never blocked (they read the committed pointer).
  await session.query(`SELECT id FROM "LinkedAccount" WHERE id = $1 FOR UPDATE`, [write.linkedAccountId]);
  const [next] = await session.query<{ version: number }>(
    `SELECT COALESCE(MAX(version), 0) + 1 AS version FROM "FiDataSnapshot" WHERE "linkedAccountId" = $1`,
    [write.linkedAccountId],
  );
  const version = Number(next?.version ?? 1);
  const [snapshot] = await session.query<{ id: string }>(
    `INSERT INTO "FiDataSnapshot" ("linkedAccountId", "journeyId", version, "fiType", "maskedAccountNumber", balance, currency,
        profile, summary, "transactionsStart", "transactionsEnd", "schemaVersion", "sourceFormat", "transactionCount")
     VALUES ($1, $2, $3, $4, $5, $6::numeric, $7, $8::jsonb, $9::jsonb, $10, $11, $12, $13, $14) RETURNING id`,
    [
      write.linkedAccountId,
      journeyId,
      version,
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
      account.transactions.length,
    ],
  );
  const snapshotId = (snapshot as { id: string }).id;
  await insertTransactions(session, snapshotId, account);
  await session.query(
    `UPDATE "LinkedAccount" SET "currentSnapshotId" = $2, "maskedAccountNumber" = $3, "fiType" = $4 WHERE id = $1`,
    [write.linkedAccountId, snapshotId, account.maskedAccountNumber, account.fiType],
  );
  await session.query(`DELETE FROM "FiDataSnapshot" WHERE "linkedAccountId" = $1 AND version <= $2`, [
    write.linkedAccountId,
    version - RETAINED_SNAPSHOTS,
  ]);
  return snapshotId;
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
  storeJourney(journey: JourneyWrite, snapshots: SnapshotWrite[], within?: (session: SqlSession) => Promise<void>): Promise<string[]> {
    return this.#db.transaction(async (session) => {
      // A journey started by an FI request (PENDING) completes here; a new one is created
      // COMPLETED. One that has completed already, or belongs to another consent, is refused.
      const stored = await session.query(
        `INSERT INTO "Journey" (id, "organisationId", "consentId", status, "configId", source, "completedAt")
         VALUES ($1, $2, $3::uuid, 'COMPLETED', $4, $5, now())
         ON CONFLICT (id) DO UPDATE SET status = 'COMPLETED', "completedAt" = now()
           WHERE "Journey".status = 'PENDING' AND "Journey"."consentId" = EXCLUDED."consentId"
         RETURNING id`,
        [journey.id, journey.organisationId, journey.consentId, journey.configId, journey.source],
      );
      if (stored.length === 0) throw new JourneyExistsError(journey.id);
      const ids: string[] = [];
      for (const write of snapshots) ids.push(await replaceSnapshot(session, journey.id, write));
      if (within) await within(session);
      return ids;
    });
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

export interface StoredTransaction {
  position: number;
  txnId: string;
  type: string;
  amount: string;
  currentBalance: string | null;
  transactionTimestamp: string;
  mode: string;
  narration: string | null;
  reference: string | null;
  valueDate: string | null;
  sourceMode: string | null;
  sourceType: string | null;
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
