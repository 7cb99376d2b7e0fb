/**
 * SDK Init throughput beside a bare Fastify route, in the same run.
 *
 *   baseline  a bare Fastify route answering a constant {status, session_token} body
 *   signing   a bare Fastify route that only signs an ES256 token for the body's reference_id, as
 *             the service does (no authentication, validation, session or logging): the ceiling
 *             of any SDK Init here
 *   sdk-init  POST /pfm/sdk/init with Basic credentials: authentication, validation, the PFM
 *             configuration, an ES256 token and a session record committed to the database
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm run bench:sdk [-- --seconds 10]
 *
 * 50 connections; servers in a child process (logging as in production, to /dev/null),
 * autocannon in this one. Beside the rates it prints the CPU time each request cost: in the
 * server process (all its threads), in the load generator, and on the whole machine (PostgreSQL
 * and the kernel included), read from /proc; 2 cores can serve at most 2 s / that figure.
 */
import { fork } from "node:child_process";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import Fastify from "fastify";
import { loadConfig } from "../../src/config.ts";
import { createScratchDatabase } from "../../src/db/scratch-database.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startService } from "../../src/runtime.ts";
import { TokenSigner } from "../../src/domain/sdk/token-signer.ts";

const serverUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const seconds = Number(process.argv[process.argv.indexOf("--seconds") + 1]) || 10;
const CONNECTIONS = 50;

interface Ready {
  servicePort: number;
  baselinePort: number;
  signingPort: number;
  authorization: string;
}

async function serve() {
  const scratch = await createScratchDatabase(serverUrl, "fiu_bench");
  const url = new URL(scratch.url);
  const config = loadConfig({ DATABASE_URL: url.toString(), LOG_LEVEL: process.env.LOG_LEVEL ?? "info", ADMIN_TOKEN: "bench-admin-token-000000", KEY_ENCRYPTION_SECRET: "bench-key-encryption-secret-000000000000" });
  const service = await startService(config, { db: openDatabase({ databaseUrl: config.databaseUrl, poolSize: 20 }) });
  await service.ctx.tenants.createOrganisation({ organisationId: "bench-org", name: "Bench" });
  const app = await service.ctx.tenants.createApp({ organisationId: "bench-org", appIdentifier: "bench-app" });
  await service.ctx.tenants.createPfmConfig("bench-org", "bench-pfm");
  await service.app.listen({ host: "127.0.0.1", port: 0 });

  const baseline = Fastify();
  baseline.post("/pfm/sdk/init", async () => ({ status: "SUCCESS", session_token: "eyJhbGciOiJFUzI1NiJ9.e30.c2lnbmF0dXJl" }));
  await baseline.listen({ host: "127.0.0.1", port: 0 });

  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const signer = new TokenSigner();
  const signing = Fastify();
  signing.post<{ Body: { reference_id: string } }>("/pfm/sdk/init", async (request) => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: request.body.reference_id, jti: randomUUID(), iat: now, exp: now + 900 };
    return { status: "SUCCESS", session_token: await signer.sign({ kid: "bench", typ: "JWT" }, claims, privateKey) };
  });
  await signing.listen({ host: "127.0.0.1", port: 0 });

  process.send?.({
    servicePort: (service.app.server.address() as { port: number }).port,
    baselinePort: (baseline.server.address() as { port: number }).port,
    signingPort: (signing.server.address() as { port: number }).port,
    authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString("base64")}`,
  } satisfies Ready);
  process.once("message", async () => {
    await baseline.close();
    await signing.close();
    await signer.close();
    await service.close();
    await scratch.drop();
    process.exit(0);
  });
}

const CLOCK_TICKS_PER_SECOND = 100;

/** The number /proc gives, or NaN where there is no /proc (the CPU columns then read NaN). */
function fromProc(file: string, read: (text: string) => number): number {
  try {
    return read(readFileSync(file, "utf8"));
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds used so far: by one process (all threads), and by the whole machine. */
function processCpuSeconds(pid: number): number {
  return fromProc(`/proc/${pid}/stat`, (text) => {
    const fields = text.split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  });
}
function machineCpuSeconds(): number {
  return fromProc("/proc/stat", (text) => {
    const [user, nice, system, , , irq, softirq, steal] = text.split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / CLOCK_TICKS_PER_SECOND;
  });
}

interface Measured {
  result: autocannon.Result;
  /** CPU microseconds per answered request. */
  cpu: { server: number; generator: number; machine: number };
}

async function measure(serverPid: number, url: string, headers: Record<string, string>): Promise<Measured> {
  const before = { server: processCpuSeconds(serverPid), generator: processCpuSeconds(process.pid), machine: machineCpuSeconds() };
  const result = await drive(url, headers);
  const requests = result.requests.total;
  const perRequest = (seconds: number) => (seconds / requests) * 1e6;
  return {
    result,
    cpu: {
      server: perRequest(processCpuSeconds(serverPid) - before.server),
      generator: perRequest(processCpuSeconds(process.pid) - before.generator),
      machine: perRequest(machineCpuSeconds() - before.machine),
    },
  };
}

function drive(url: string, headers: Record<string, string>) {
  let user = 0;
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url,
        method: "POST",
        headers,
        connections: CONNECTIONS,
        duration: seconds,
        // A different user on every request, as an integrator's backend would send.
        requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ reference_id: `user-${++user}`, pfm_config_id: "bench-pfm", user_profile: { mobile_number: "9876543210", name: "Asha Verma", dob: "14-08-1990", pan: "ABCPV1234K" } }) }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function main() {
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], { execArgv: process.execArgv, stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const ready = await new Promise<Ready>((resolve) => child.once("message", (message) => resolve(message as Ready)));
  const headers = { "content-type": "application/json", authorization: ready.authorization };
  const baselineUrl = `http://127.0.0.1:${ready.baselinePort}/pfm/sdk/init`;
  const serviceUrl = `http://127.0.0.1:${ready.servicePort}/pfm/sdk/init`;
  const check = await fetch(serviceUrl, { method: "POST", headers, body: JSON.stringify({ reference_id: "warm", pfm_config_id: "bench-pfm", user_profile: { mobile_number: "9876543210", pan: "ABCPV1234K" } }) });
  if (check.status !== 200) throw new Error(`SDK Init answered ${check.status}: ${await check.text()}`);
  await drive(baselineUrl, headers);
  const baseline = await measure(child.pid!, baselineUrl, headers);
  const signing = await measure(child.pid!, `http://127.0.0.1:${ready.signingPort}/pfm/sdk/init`, headers);
  const sdk = await measure(child.pid!, serviceUrl, headers);
  child.send("stop");
  await new Promise((resolve) => child.once("exit", resolve));
  console.log(`\nSDK Init, PostgreSQL, ${CONNECTIONS} connections, ${seconds} s each`);
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), node ${process.version}\n`);
  console.log("target                          req/s    p50 ms  p99 ms  errors  ratio   CPU µs per request: server  generator  machine");
  for (const [name, { result, cpu }] of [["baseline (bare Fastify route)", baseline], ["bare route + ES256 signature", signing], ["POST /pfm/sdk/init", sdk]] as const) {
    const figures = [result.requests.average.toFixed(0).padStart(6), String(result.latency.p50).padStart(6), String(result.latency.p99).padStart(6), String(result.errors + result.non2xx).padStart(6)];
    const ratio = `${(result.requests.average / baseline.result.requests.average).toFixed(2)}x`;
    console.log(`${name.padEnd(30)} ${figures.join("  ")}  ${ratio.padStart(5)}   ${cpu.server.toFixed(0).padStart(26)}  ${cpu.generator.toFixed(0).padStart(9)}  ${cpu.machine.toFixed(0).padStart(7)}`);
  }
}

if (process.argv.includes("--serve")) await serve();
else await main();
