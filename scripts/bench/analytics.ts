/**
 * The analytics engine on a journey of 100,000 transactions across 3 accounts, beside the time
 * to read those rows from PostgreSQL, in the same run (3 rounds each; median reported).
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm run bench:analytics
 */
import { randomUUID } from "node:crypto";
import { cpus } from "node:os";
import { analyse, DEFAULT_SETTINGS } from "../../src/analytics/engine.ts";
import { loadConfig } from "../../src/config.ts";
import { createScratchDatabase } from "../../src/db/scratch-database.ts";
import { openDatabase } from "../../src/db/database.ts";
import { AnalyticsRepository } from "../../src/db/repositories/analytics.ts";
import { currentAccount, savingsAccount } from "../../src/domain/demo/statements.ts";
import { startService } from "../../src/runtime.ts";

const serverUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const TOTAL = 100_000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const scratch = await createScratchDatabase(serverUrl, "fiu_bench");
const url = new URL(scratch.url);
const config = loadConfig({ DATABASE_URL: url.toString(), LOG_LEVEL: "warn", ADMIN_TOKEN: "bench-admin-token-000000", KEY_ENCRYPTION_SECRET: "bench-key-encryption-secret-000000000000", WORKERS: "false" });
const db = openDatabase({ databaseUrl: config.databaseUrl, poolSize: 5 });
const service = await startService(config, { db });
try {
  const { ctx } = service;
  await ctx.tenants.createOrganisation({ organisationId: "bench-org", name: "Bench" });
  const consentID = randomUUID();
  await ctx.consents.create({ consentID, organisationId: "bench-org", type: "PERIODIC", state: "ACTIVE" });
  const perAccount = Math.ceil(TOTAL / 3);
  const accounts = [];
  for (const [index, make] of [savingsAccount, currentAccount, savingsAccount].entries()) {
    const link = randomUUID();
    const masked = `XXXXXX${1000 + index}`;
    await ctx.consents.link(consentID, { linkReferenceNumber: link, fipId: "BENCH-FIP", fipName: "Bench Bank", fiType: "DEPOSIT", maskedAccountNumber: masked });
    const document = make({ seed: 100 + index, asOf: "2026-10-31", months: 24, linkedAccRef: link, maskedAccNumber: masked, density: make === savingsAccount ? 110 : 70 }) as { Account: { Transactions: { Transaction: unknown[] } } };
    const rows = document.Account.Transactions.Transaction;
    document.Account.Transactions.Transaction = rows.slice(-Math.min(perAccount, TOTAL - index * perAccount));
    accounts.push({ linkReferenceNumber: link, fipId: "BENCH-FIP", fipName: "Bench Bank", format: "json" as const, data: document });
  }
  const ingested = await ctx.ingestion.ingest({ consentID, journeyID: "jrn-bench-100k", accounts });
  const count = ingested.accounts.reduce((sum, a) => sum + a.transactions, 0);

  const repo = new AnalyticsRepository(db);
  const reads: number[] = [];
  const engine: number[] = [];
  const whole: number[] = [];
  let sections = 0;
  for (let round = 0; round < 3; round++) {
    let started = performance.now();
    const accountRows = await repo.journeyAccounts("jrn-bench-100k");
    const transactions = await repo.transactions(accountRows.map((row) => row.snapshotId));
    reads.push(performance.now() - started);
    const analysed = accountRows.map((row) => ({
      linkReferenceNumber: row.linkReferenceNumber,
      fiType: row.fiType,
      maskedAccountNumber: row.maskedAccountNumber,
      balance: Number(row.balance),
      currency: row.currency,
      profile: row.profile as never,
      summary: row.summary as never,
      transactions: transactions.filter((t) => t.snapshotId === row.snapshotId).map((t) => ({ ...t, amount: Number(t.amount), currentBalance: t.currentBalance === null ? null : Number(t.currentBalance) })),
    }));
    started = performance.now();
    const result = analyse(analysed, DEFAULT_SETTINGS);
    engine.push(performance.now() - started);
    sections = Object.keys(result).length;
    started = performance.now();
    await ctx.analytics.compute("jrn-bench-100k");
    whole.push(performance.now() - started);
  }
  const read = median(reads);
  const run = median(engine);
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), node ${process.version}, PostgreSQL`);
  console.log(`journey: ${count} transactions across ${accounts.length} accounts; ${sections} sections`);
  console.log(`read the rows from PostgreSQL: ${reads.map((t) => t.toFixed(0)).join(", ")} ms (median ${read.toFixed(0)} ms)`);
  console.log(`analyse():                     ${engine.map((t) => t.toFixed(0)).join(", ")} ms (median ${run.toFixed(0)} ms)`);
  console.log(`engine / read: ${(run / read).toFixed(2)}x`);
  console.log(`whole job (read, analyse, store result with rawData): ${whole.map((t) => t.toFixed(0)).join(", ")} ms`);
} finally {
  await service.close();
  await scratch.drop();
}
