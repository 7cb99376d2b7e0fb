import type { PrismaClient } from "../../../generated/prisma/client.ts";
import type { Database } from "../database.ts";

export interface JourneyRecord {
  id: string;
  organisationId: string;
  consentId: string;
  status: "PENDING" | "COMPLETED" | "FAILED";
  configId: string;
}

export interface JourneyAccountRow {
  snapshotId: string;
  linkReferenceNumber: string;
  fipId: string;
  fipName: string;
  fiType: string;
  maskedAccountNumber: string;
  balance: string;
  currency: string;
  profile: unknown;
  summary: unknown;
}

export interface StoredTransactionRow {
  snapshotId: string;
  txnId: string;
  type: "CREDIT" | "DEBIT";
  amount: string;
  currentBalance: string | null;
  transactionTimestamp: string;
  mode: string;
  narration: string | null;
  reference: string | null;
  valueDate: string | null;
}

export class AnalyticsRepository {
  readonly #db: Database;
  readonly #prisma: PrismaClient;

  constructor(db: Database) {
    this.#db = db;
    this.#prisma = db.prisma;
  }

  async journey(id: string): Promise<JourneyRecord | null> {
    const [row] = await this.#db.query<JourneyRecord>(`SELECT id, "organisationId", "consentId"::text AS "consentId", status::text AS status, "configId" FROM "Journey" WHERE id = $1`, [id]);
    return row ?? null;
  }

  /** The accounts whose data this journey brought (its snapshots, while they are kept). */
  journeyAccounts(journeyId: string): Promise<JourneyAccountRow[]> {
    return this.#db.query<JourneyAccountRow>(
      `SELECT s.id AS "snapshotId", l."linkReferenceNumber"::text AS "linkReferenceNumber", l."fipId", l."fipName", s."fiType",
              s."maskedAccountNumber", s.balance::text AS balance, s.currency, s.profile, s.summary
       FROM "FiDataSnapshot" s JOIN "LinkedAccount" l ON l.id = s."linkedAccountId"
       WHERE s."journeyId" = $1 ORDER BY l."createdAt", l.id`,
      [journeyId],
    );
  }

  /** The transactions of these snapshots, in the FIP's order. */
  transactions(snapshotIds: string[]): Promise<StoredTransactionRow[]> {
    return this.#db.query<StoredTransactionRow>(
      `SELECT "snapshotId"::text AS "snapshotId", "txnId", type::text AS type, amount::text AS amount, "currentBalance"::text AS "currentBalance",
              "transactionTimeText" AS "transactionTimestamp", mode, narration, reference, "valueDate"
       FROM "FiTransaction" WHERE "snapshotId" = ANY($1::uuid[]) ORDER BY "snapshotId", seq`,
      [snapshotIds],
    );
  }

  async result(journeyId: string): Promise<{ configId: string; runId: string; result: unknown } | null> {
    return this.#prisma.analyticsResult.findUnique({ where: { journeyId }, select: { configId: true, runId: true, result: true } });
  }

  async saveResult(journeyId: string, configId: string, runId: string, result: unknown): Promise<void> {
    await this.#db.query(
      `INSERT INTO "AnalyticsResult" ("journeyId", "configId", "runId", result) VALUES ($1, $2, $3::uuid, $4::jsonb)
       ON CONFLICT ("journeyId") DO UPDATE SET "configId" = EXCLUDED."configId", "runId" = EXCLUDED."runId", result = EXCLUDED.result, "computedAt" = now()`,
      [journeyId, configId, runId, JSON.stringify(result)],
    );
  }

  /** The organisation's configuration of this id, else the deployment's (organisation null). */
  async config(organisationId: string, configId: string): Promise<{ organisationId: string | null; settings: unknown } | null> {
    const rows = await this.#prisma.analyticsConfig.findMany({
      where: { configId, OR: [{ organisationId }, { organisationId: null }] },
      select: { organisationId: true, settings: true },
    });
    return rows.find((row) => row.organisationId === organisationId) ?? rows[0] ?? null;
  }

  async putConfig(organisationId: string, configId: string, settings: unknown): Promise<void> {
    await this.#prisma.analyticsConfig.upsert({
      where: { organisationId_configId: { organisationId, configId } },
      create: { organisationId, configId, settings: settings as object },
      update: { settings: settings as object },
    });
  }
}
