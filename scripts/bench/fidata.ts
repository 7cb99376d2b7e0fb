/**
 * Get FI Data throughput against PostgreSQL, beside a baseline in the same run.
 *
 * Seeds one account with 1,000 transactions in a fresh database, then drives with autocannon
 * (50 connections) three targets, one after the other:
 *   baseline  a bare Fastify route that runs the same rows query with `pg` and returns
 *             JSON.stringify of the rows (no authentication, no checks)
 *   json      POST /getfidata with the four headers (the real service)
 *   xml       POST /xml/getfidata
 * and prints requests/s, latencies and the ratios to the baseline.
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm run bench:fidata [-- --seconds 10]
 *
 * The servers run in a child process, autocannon in this one.
 */
import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import Fastify from "fastify";
import pg from "pg";
import { loadConfig } from "../../src/config.ts";
import { createScratchDatabase } from "../../src/db/scratch-database.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startService } from "../../src/runtime.ts";
import { savingsAccount } from "../../src/domain/demo/statements.ts";

const serverUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const seconds = Number(process.argv[process.argv.indexOf("--seconds") + 1]) || 10;
const CONNECTIONS = 50;

interface Ready {
  servicePort: number;
  baselinePort: number;
  headers: Record<string, string>;
  body: { consentID: string; linkReferenceNumber: string };
  transactions: number;
}

async function serve() {
  const scratch = await createScratchDatabase(serverUrl, "fiu_bench");
  const url = new URL(scratch.url);

  const config = loadConfig({ DATABASE_URL: url.toString(), LOG_LEVEL: process.env.LOG_LEVEL ?? "info", ADMIN_TOKEN: "bench-admin-token-000000", RATE_LIMIT_MAX: "1000000", KEY_ENCRYPTION_SECRET: "bench-key-encryption-secret-000000000000" });
  const db = openDatabase({ databaseUrl: config.databaseUrl, poolSize: 20 });
  const service = await startService(config, { db });
  const { ctx } = service;

  await ctx.tenants.createOrganisation({ organisationId: "bench-org", name: "Bench" });
  const app = await ctx.tenants.createApp({ organisationId: "bench-org", appIdentifier: "bench-app" });
  const consentID = randomUUID();
  const link = randomUUID();
  await ctx.consents.create({ consentID, organisationId: "bench-org", type: "PERIODIC", state: "ACTIVE" });
  await ctx.consents.link(consentID, { linkReferenceNumber: link, fipId: "BENCH-FIP", fipName: "Bench Bank", fiType: "DEPOSIT", maskedAccountNumber: "XXXX0001" });
  // A salaried account densified to 1,000 transactions.
  const document = savingsAccount({ seed: 7, asOf: "2026-10-31", months: 12, linkedAccRef: link, maskedAccNumber: "XXXX0001", density: 6 }) as { Account: { Transactions: { Transaction: unknown[] } } };
  document.Account.Transactions.Transaction = document.Account.Transactions.Transaction.slice(-1000);
  const ingested = await ctx.ingestion.ingest({ consentID, accounts: [{ linkReferenceNumber: link, fipId: "BENCH-FIP", fipName: "Bench Bank", format: "json", data: document }] });
  const transactions = ingested.accounts[0]?.transactions ?? 0;
  await service.app.listen({ host: "127.0.0.1", port: 0 });

  // The baseline: the same rows, straight from pg, serialised with JSON.stringify.
  const pool = new pg.Pool({ connectionString: url.toString(), max: 20 });
  const [{ snapshotId }] = (await pool.query(`SELECT "currentSnapshotId" AS "snapshotId" FROM "LinkedAccount" WHERE "linkReferenceNumber" = $1`, [link])).rows;
  const baseline = Fastify();
  baseline.post("/rows", async (_request, reply) => {
    const { rows } = await pool.query(
      `SELECT t."transactionTimeText" AS "transactionTimestamp", t."txnId", t.type::text AS type, t.amount::text AS amount,
              t."currentBalance"::text AS "currentBalance", t.mode, t.narration, t.reference, t."valueDate"
       FROM "FiTransaction" t WHERE t."snapshotId" = $1 ORDER BY t.position`,
      [snapshotId],
    );
    reply.type("application/json").send(JSON.stringify(rows));
  });
  await baseline.listen({ host: "127.0.0.1", port: 0 });

  const ready: Ready = {
    servicePort: (service.app.server.address() as { port: number }).port,
    baselinePort: (baseline.server.address() as { port: number }).port,
    headers: { client_id: app.client_id, client_secret: app.client_secret, organisationId: "bench-org", appIdentifier: "bench-app", "content-type": "application/json" },
    body: { consentID, linkReferenceNumber: link },
    transactions,
  };
  process.send?.(ready);
  process.once("message", async () => {
    await baseline.close();
    await pool.end();
    await service.close();
    await scratch.drop();
    process.exit(0);
  });
}

function drive(title: string, url: string, headers: Record<string, string>, body: string) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, method: "POST", headers, body, connections: CONNECTIONS, duration: seconds, title }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function main() {
  // The service logs as in production (one JSON line per request, to a discarded stdout).
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], { execArgv: process.execArgv, stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const ready = await new Promise<Ready>((resolve) => child.once("message", (message) => resolve(message as Ready)));
  const body = JSON.stringify(ready.body);
  const warm = (url: string, headers: Record<string, string>) => fetch(url, { method: "POST", headers, body });
  const baselineUrl = `http://127.0.0.1:${ready.baselinePort}/rows`;
  const jsonUrl = `http://127.0.0.1:${ready.servicePort}/getfidata`;
  const xmlUrl = `http://127.0.0.1:${ready.servicePort}/xml/getfidata`;
  for (let i = 0; i < 50; i++) {
    await warm(baselineUrl, { "content-type": "application/json" });
    await warm(jsonUrl, ready.headers);
    await warm(xmlUrl, ready.headers);
  }
  const sizes = await Promise.all([baselineUrl, jsonUrl, xmlUrl].map(async (url, i) => (await (await warm(url, i === 0 ? { "content-type": "application/json" } : ready.headers)).arrayBuffer()).byteLength));

  const results: Array<[string, autocannon.Result, number]> = [];
  results.push(["baseline (pg + JSON.stringify)", await drive("baseline", baselineUrl, { "content-type": "application/json" }, body), sizes[0]!]);
  results.push(["getfidata JSON", await drive("json", jsonUrl, ready.headers, body), sizes[1]!]);
  results.push(["getfidata XML", await drive("xml", xmlUrl, ready.headers, body), sizes[2]!]);
  child.send("stop");
  await new Promise((resolve) => child.once("exit", resolve));

  const base = results[0]![1].requests.average;
  console.log(`\nGet FI Data, 1 account x ${ready.transactions} transactions, PostgreSQL, ${CONNECTIONS} connections, ${seconds} s each`);
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), node ${process.version}\n`);
  console.log("target                          req/s    p50 ms  p99 ms  body bytes  errors  ratio");
  for (const [name, result, size] of results) {
    const errors = result.errors + result.non2xx;
    console.log(
      `${name.padEnd(30)} ${result.requests.average.toFixed(0).padStart(6)}  ${String(result.latency.p50).padStart(6)}  ${String(result.latency.p99).padStart(6)}  ${String(size).padStart(10)}  ${String(errors).padStart(6)}  ${(result.requests.average / base).toFixed(2)}x`,
    );
  }
}

if (process.argv.includes("--serve")) await serve();
else await main();
