/**
 * Bulk scheduling, against PostgreSQL, in two parts:
 *
 * 1. Upload: a CSV just under 10 MB (about 115,000 rows, all four columns) posted to
 *    /fi/requests/schedule/upload/v3; the time to the 202 and the server's peak RSS growth
 *    during the request (sampled every 5 ms in the server process). This instance runs no
 *    workers (WORKERS=false), so the batch is stored but not processed.
 * 2. Pipeline: a batch of ACTIVE consents (one savings or current account each, a month of
 *    data) processed by the worker through the AA simulator; rows per second from upload to
 *    COMPLETED.
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm run bench:bulk [-- --rows 3000]
 */
import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config.ts";
import { createScratchDatabase } from "../../src/db/scratch-database.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startService } from "../../src/runtime.ts";

const serverUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const pipelineRows = Number(process.argv[process.argv.indexOf("--rows") + 1]) || 8000;

type Message = { kind: "ready"; port: number; headers: Record<string, string>; consents: string[] } | { kind: "rss"; baseline: number; peak: number };

async function serve(workers: boolean, consentsToCreate: number) {
  const scratch = await createScratchDatabase(serverUrl, "fiu_bench");
  const url = new URL(scratch.url);
  const config = loadConfig({
    DATABASE_URL: url.toString(),
    LOG_LEVEL: "info",
    ADMIN_TOKEN: "bench-admin-token-000000",
    KEY_ENCRYPTION_SECRET: "bench-key-encryption-secret-000000000000",
    WORKERS: String(workers),
    JOBS_POLL_INTERVAL_MS: "500",
    BULK_CONCURRENCY: process.env.BULK_CONCURRENCY ?? "8",
  });
  const db = openDatabase({ databaseUrl: config.databaseUrl, poolSize: 20 });
  const service = await startService(config, { db });
  await service.ctx.tenants.createOrganisation({ organisationId: "bench-org", name: "Bench" });
  const app = await service.ctx.tenants.createApp({ organisationId: "bench-org", appIdentifier: "bench-app" });
  const consents = Array.from({ length: consentsToCreate }, () => randomUUID());
  if (consents.length > 0) {
    await db.query(`INSERT INTO "Consent" (id, "organisationId", type, state, "updatedAt") SELECT unnest($1::uuid[]), 'bench-org', 'PERIODIC', 'ACTIVE', now()`, [consents]);
    await db.query(
      `INSERT INTO "LinkedAccount" ("consentId", "linkReferenceNumber", "fipId", "fipName", "fiType", "maskedAccountNumber")
       SELECT c, gen_random_uuid(), 'SIM-FIP', 'Simulated Bank', 'DEPOSIT', 'XXXX' || lpad((n % 10000)::text, 4, '0')
       FROM unnest($1::uuid[]) WITH ORDINALITY AS t(c, n)`,
      [consents],
    );
  }
  await service.app.listen({ host: "127.0.0.1", port: 0 });

  let sampling: NodeJS.Timeout | undefined;
  let baseline = 0;
  let peak = 0;
  process.on("message", async (message: string) => {
    if (message === "sample") {
      baseline = process.memoryUsage().rss;
      peak = baseline;
      sampling = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    } else if (message === "report") {
      clearInterval(sampling);
      process.send?.({ kind: "rss", baseline, peak } satisfies Message);
    } else if (message === "stop") {
      await service.close();
      await scratch.drop();
      process.exit(0);
    }
  });
  process.send?.({
    kind: "ready",
    port: (service.app.server.address() as { port: number }).port,
    headers: { client_id: app.client_id, client_secret: app.client_secret, organisationId: "bench-org", appIdentifier: "bench-app" },
    consents,
  } satisfies Message);
}

function start(workers: boolean, consents: number) {
  const child = fork(fileURLToPath(import.meta.url), ["--serve", String(workers), String(consents)], { execArgv: process.execArgv, stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const next = () => new Promise<Message>((resolve) => child.once("message", (message) => resolve(message as Message)));
  return { child, next };
}

async function stop(child: ReturnType<typeof fork>) {
  child.send("stop");
  await new Promise((resolve) => child.once("exit", resolve));
}

function post(port: number, headers: Record<string, string>, csv: string, reference: string) {
  const form = new FormData();
  form.append("reference_id", reference);
  form.append("file", new Blob([csv], { type: "text/csv" }), "consents.csv");
  return fetch(`http://127.0.0.1:${port}/fi/requests/schedule/upload/v3`, { method: "POST", headers, body: form });
}

async function main() {
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), node ${process.version}, PostgreSQL`);

  if (!process.argv.includes("--pipeline-only")) await measureUpload();
  await measurePipeline();
}

async function measureUpload() {
  // 1. Upload of a file just under 10 MB.
  const header = "consentId,fiDataRangeFrom,fiDataRangeTo,configId\n";
  const line = () => `${randomUUID()},2025-11-01T00:00:00Z,2026-10-31T23:59:59Z,config-std-01\n`;
  const rows = Math.floor((10_485_760 - 1024 - header.length) / line().length);
  const csv = header + Array.from({ length: rows }, line).join("");
  const uploader = start(false, 0);
  const ready = (await uploader.next()) as Extract<Message, { kind: "ready" }>;
  for (let i = 0; i < 2; i++) await (await post(ready.port, ready.headers, "consentId\n" + randomUUID() + "\n", `warm-up-${i}-0`)).text();
  const timings: number[] = [];
  let rss = { baseline: 0, peak: 0 };
  for (let run = 0; run < 3; run++) {
    uploader.child.send("sample");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const response = await post(ready.port, ready.headers, csv, `bench-upload-${run}`);
    const body = (await response.json()) as { data?: { total_records: number } };
    timings.push(performance.now() - started);
    if (response.status !== 202 || body.data?.total_records !== rows) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    uploader.child.send("report");
    const report = (await uploader.next()) as Extract<Message, { kind: "rss" }>;
    if (report.peak - report.baseline > rss.peak - rss.baseline) rss = report;
  }
  await stop(uploader.child);
  console.log(`\nupload: ${(Buffer.byteLength(csv) / 1048576).toFixed(2)} MiB, ${rows} rows, 4 columns`);
  console.log(`  time to 202: ${timings.map((t) => `${(t / 1000).toFixed(2)} s`).join(", ")} (3 runs)`);
  console.log(`  server peak RSS growth during the upload: ${((rss.peak - rss.baseline) / 1048576).toFixed(0)} MiB (from ${(rss.baseline / 1048576).toFixed(0)} MiB)`);
}

async function measurePipeline() {
  // 2. The pipeline, through the AA simulator.
  const processor = start(true, pipelineRows);
  const worker = (await processor.next()) as Extract<Message, { kind: "ready" }>;
  const file = `consentId,fiDataRangeFrom,fiDataRangeTo\n${worker.consents.map((id) => `${id},2026-10-01,2026-10-31`).join("\n")}\n`;
  const started = performance.now();
  const accepted = (await (await post(worker.port, worker.headers, file, "bench-pipeline")).json()) as { data: { batch_id: string } };
  let data: { status: string; counts: Record<string, number> };
  let processingFrom: number | undefined;
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${worker.port}/fi/requests/schedule/batches/${accepted.data.batch_id}?pageSize=1`, { headers: worker.headers });
    data = ((await response.json()) as { data: typeof data }).data;
    if (processingFrom === undefined && data.status !== "FILE_UPLOADED") processingFrom = performance.now();
    if (data.status === "COMPLETED" || data.status === "COMPLETED_WITH_ERRORS") break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  const processing = (ended - (processingFrom ?? started)) / 1000;
  await stop(processor.child);
  console.log(`\npipeline: ${pipelineRows} rows (one account each, October 2026 through the simulator, BULK_CONCURRENCY=${process.env.BULK_CONCURRENCY ?? "8"})`);
  console.log(`  upload to COMPLETED ${seconds.toFixed(1)} s: ${(pipelineRows / seconds).toFixed(0)} rows/s; processing ${processing.toFixed(1)} s: ${(pipelineRows / processing).toFixed(0)} rows/s`);
  console.log(`  batch ${data.status}, ${JSON.stringify(data.counts)}`);
}

if (process.argv.includes("--serve")) {
  const [workers, consents] = process.argv.slice(process.argv.indexOf("--serve") + 1);
  await serve(workers === "true", Number(consents));
} else await main();
