import { createHash, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../generated/prisma/client.ts";
import type { Database } from "../../src/db/database.ts";
import { migrate, MIGRATIONS_DIR, MigrationError, readMigrations } from "../../src/db/migrator.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

describe("migrations", () => {
  let database: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  afterAll(() => database.drop());

  it("applies every migration once and records it as Prisma does", async () => {
    const applied = await migrate(db);
    expect(applied).toEqual(readMigrations().map((m) => m.name));
    const rows = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    for (const [index, migration] of readMigrations().entries()) {
      const sql = readFileSync(path.join(MIGRATIONS_DIR, migration.name, "migration.sql"));
      expect(rows[index]).toMatchObject({
        migration_name: migration.name,
        checksum: createHash("sha256").update(sql).digest("hex"),
        applied_steps_count: 1,
      });
      expect(rows[index]?.finished_at).not.toBeNull();
    }
    expect(await migrate(db)).toEqual([]);
  });

  it("refuses a migration that changed after it was applied", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const first = readMigrations(dir)[0]?.name as string;
    writeFileSync(path.join(dir, first, "migration.sql"), "-- edited\n", { flag: "a" });
    await expect(migrate(db, dir)).rejects.toBeInstanceOf(MigrationError);
  });

  it("rolls a failing migration back whole and records nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const broken = path.join(dir, "29991231000000_broken");
    cpSync(path.join(MIGRATIONS_DIR, readMigrations()[0]?.name as string), broken, { recursive: true });
    writeFileSync(path.join(broken, "migration.sql"), `CREATE TABLE "Half" (id int);\nSELECT no_such_function();\n`);
    await expect(migrate(db, dir)).rejects.toThrow(/29991231000000_broken failed/);
    const tables = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'Half'`);
    expect(tables).toHaveLength(0);
    const records = await db.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '29991231000000_broken'`);
    expect(records).toHaveLength(0);
  });

  it("writes and reads back every model of schema.prisma", async () => {
    const prisma = db.prisma;
    const covered = new Set<string>();
    const roundTrip = async <T extends Record<string, unknown>>(model: string, create: () => Promise<T>, read: (created: T) => Promise<unknown>) => {
      const created = await create();
      expect(await read(created), model).toEqual(created);
      covered.add(model);
      return created;
    };

    const organisation = await roundTrip(
      "Organisation",
      () => prisma.organisation.create({ data: { id: "rt-org", name: "Round Trip", webhookUrl: "https://example.in/hook", webhookSecret: "whsec_x", rateLimitMax: 10, rateLimitWindowSecond: 60 } }),
      (c) => prisma.organisation.findUnique({ where: { id: c.id } }),
    );
    const app = await roundTrip(
      "App",
      () => prisma.app.create({ data: { organisationId: organisation.id, appIdentifier: "a", clientId: "rt-client", clientSecretHash: "scrypt$1$1$1$s$h", revokedAt: new Date("2026-01-01T00:00:00Z") } }),
      (c) => prisma.app.findUnique({ where: { id: c.id } }),
    );
    const pfm = await roundTrip(
      "PfmConfig",
      () => prisma.pfmConfig.create({ data: { organisationId: organisation.id, pfmConfigId: "p", encryptionEnabled: true, clientPublicJwk: { kty: "EC", crv: "P-256" } } }),
      (c) => prisma.pfmConfig.findUnique({ where: { id: c.id } }),
    );
    const consent = await roundTrip(
      "Consent",
      () => prisma.consent.create({ data: { id: randomUUID(), organisationId: organisation.id, type: "ONETIME", state: "PAUSED" } }),
      (c) => prisma.consent.findUnique({ where: { id: c.id } }),
    );
    const link = await roundTrip(
      "LinkedAccount",
      () => prisma.linkedAccount.create({ data: { consentId: consent.id, linkReferenceNumber: randomUUID(), fipId: "F", fipName: "Bank", fiType: "TERM-DEPOSIT", maskedAccountNumber: "XX12" } }),
      (c) => prisma.linkedAccount.findUnique({ where: { id: c.id } }),
    );
    const journey = await roundTrip(
      "Journey",
      () => prisma.journey.create({ data: { id: "rt-journey", organisationId: organisation.id, consentId: consent.id, status: "COMPLETED", configId: "c", source: "bulk", completedAt: new Date() } }),
      (c) => prisma.journey.findUnique({ where: { id: c.id } }),
    );
    const snapshot = await roundTrip(
      "FiDataSnapshot",
      () =>
        prisma.fiDataSnapshot.create({
          data: { linkedAccountId: link.id, journeyId: journey.id, version: 1, fiType: "DEPOSIT", maskedAccountNumber: "XX12", balance: new Prisma.Decimal("123456789012.3456"), currency: "INR", profile: { holders: [{ name: "A" }] }, summary: { attributes: { type: "SAVINGS" } }, transactionsStart: "2026-01-01", transactionsEnd: "2026-02-01", schemaVersion: "1.1", sourceFormat: "xml", transactionCount: 1 },
        }),
      (c) => prisma.fiDataSnapshot.findUnique({ where: { id: c.id } }),
    );
    await roundTrip(
      "FiTransaction",
      () =>
        prisma.fiTransaction.create({
          data: { snapshotId: snapshot.id, seq: 0, position: 0, txnId: "T1", type: "DEBIT", amount: new Prisma.Decimal("0.01"), currentBalance: new Prisma.Decimal("-5.5"), transactionTimestamp: new Date("2026-01-01T10:00:00.123Z"), transactionTimeText: "2026-01-01T15:30:00.123+05:30", mode: "OTHERS", sourceMode: "FT", sourceType: "TDS", narration: "n & <x>", reference: "r", valueDate: "2026-01-01" },
        }),
      (c) => prisma.fiTransaction.findUnique({ where: { snapshotId_position: { snapshotId: c.snapshotId, position: c.position } } }),
    );
    await roundTrip(
      "AnalyticsConfig",
      () => prisma.analyticsConfig.create({ data: { organisationId: organisation.id, configId: "strict", settings: { abbDays: [5, 15, 30] } } }),
      (c) => prisma.analyticsConfig.findUnique({ where: { id: c.id } }),
    );
    await roundTrip(
      "AnalyticsResult",
      () => prisma.analyticsResult.create({ data: { journeyId: journey.id, configId: "strict", runId: randomUUID(), result: { overallAnalysis: { maximumBalance: 1.5 } } } }),
      (c) => prisma.analyticsResult.findUnique({ where: { journeyId: c.journeyId } }),
    );
    const batch = await roundTrip(
      "BulkBatch",
      () => prisma.bulkBatch.create({ data: { organisationId: organisation.id, referenceId: "ref-00001", status: "COMPLETED_WITH_ERRORS", fileName: "f.csv", fileType: "text/csv", totalRecords: 1, globalConfig: { configId: "default" }, txnid: randomUUID() } }),
      (c) => prisma.bulkBatch.findUnique({ where: { id: c.id } }),
    );
    await roundTrip(
      "BulkRow",
      () => prisma.bulkRow.create({ data: { batchId: batch.id, rowNumber: 1, consentId: consent.id, fiDataRangeFrom: "2026-01-01", fiDataRangeTo: "2026-02-01", configId: "c", state: "FAILED", failureReason: "consent not ACTIVE", journeyId: journey.id, attempts: 2 } }),
      (c) => prisma.bulkRow.findUnique({ where: { id: c.id } }),
    );
    await roundTrip(
      "SdkSession",
      () => prisma.sdkSession.create({ data: { id: randomUUID(), organisationId: organisation.id, appId: app.id, pfmConfigId: pfm.id, referenceId: "user-1", signingKeyId: "k1", profileSealed: "sealed", issuedAt: new Date(), expiresAt: new Date(Date.now() + 900_000) } }),
      (c) => prisma.sdkSession.findUnique({ where: { id: c.id } }),
    );
    await roundTrip(
      "ServiceKey",
      () => prisma.serviceKey.create({ data: { kid: "k1", use: "ENC", alg: "ECDH-ES+A256KW", publicJwk: { kty: "EC" }, privateSealed: "sealed", retiredAt: new Date(), expiresAt: new Date() } }),
      (c) => prisma.serviceKey.findUnique({ where: { kid: c.kid } }),
    );
    const delivery = await roundTrip(
      "WebhookDelivery",
      () => prisma.webhookDelivery.create({ data: { id: "msg_1", organisationId: organisation.id, eventType: "DATA_READY", payload: { type: "DATA_READY" }, targetUrl: "https://example.in/hook", status: "DELIVERED", attemptCount: 2, lastResponseCode: 200, lastError: null, deliveredAt: new Date() } }),
      (c) => prisma.webhookDelivery.findUnique({ where: { id: c.id } }),
    );
    await roundTrip(
      "WebhookAttempt",
      () => prisma.webhookAttempt.create({ data: { deliveryId: delivery.id, attemptNumber: 1, startedAt: new Date(), latencyMs: 12, responseCode: 503, error: "Service Unavailable", succeeded: false } }),
      (c) => prisma.webhookAttempt.findUnique({ where: { id: c.id } }),
    );

    expect([...covered].sort()).toEqual(Object.values(Prisma.ModelName).sort());
  });

  it("keeps decimal amounts exactly as written (scale included)", async () => {
    const [row] = await db.query<{ value: string }>(`SELECT '1000.50'::numeric::text AS value`);
    expect(row?.value).toBe("1000.50");
    const columns = await db.query<{ column_name: string; numeric_precision: number | null }>(
      `SELECT column_name, numeric_precision FROM information_schema.columns WHERE table_name = 'FiTransaction' AND data_type = 'numeric'`,
    );
    // Unconstrained NUMERIC: no precision or scale is imposed on what FIPs send.
    expect(columns.map((c) => c.numeric_precision)).toEqual([null, null]);
  });
});
