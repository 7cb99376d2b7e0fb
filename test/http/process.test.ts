import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { createTestDatabase } from "../helpers/database.ts";
import { DEMO_HEADERS } from "../helpers/service.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

interface Running {
  child: ChildProcess;
  url: string;
  logs: Array<Record<string, unknown>>;
  exited: Promise<number | null>;
}

/** `npm start` as a newcomer runs it: the real entry point, the embedded database in dataDir. */
function startServer(dataDir: string, env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, ["src/server.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: Array<Record<string, unknown>> = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let buffer = "";
    let stderr = "";
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    child.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (typeof entry.address === "string") resolve({ child, url: entry.address, logs, exited });
      }
    });
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}

describe("the service as a process (npm start)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "fiu-data-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("starts on an empty embedded database, seeds the demo tenant, serves it, and stops cleanly on SIGTERM", async () => {
    const server = await startServer(dataDir);
    expect(server.logs.some((entry) => String(entry.msg).startsWith("seeded the demo tenant"))).toBe(true);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const consent = await fetch(`${server.url}/admin/v1/consents/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f`, { headers: { authorization: "Bearer demo-admin-token" } });
    expect(consent.status).toBe(200);
    expect(((await consent.json()) as { links: unknown[] }).links).toHaveLength(4);
    const call = await fetch(`${server.url}/getfidata`, { method: "POST", headers: { ...DEMO_HEADERS, "content-type": "application/json" }, body: "{}" });
    expect(await call.json()).toMatchObject({ errorCode: "InvalidRequest", errorMsg: "consentID is required" });

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.logs.map((entry) => entry.msg)).toContain("stopped");
  }, 60_000);

  it("keeps its data across a restart and does not seed again", async () => {
    const server = await startServer(dataDir);
    expect(server.logs.some((entry) => String(entry.msg).startsWith("seeded"))).toBe(false);
    const organisation = await fetch(`${server.url}/admin/v1/organisations/demo-org`, { headers: { authorization: "Bearer demo-admin-token" } });
    expect(organisation.status).toBe(200);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 60_000);
});

describe("a service process killed in the middle of a bulk batch (PostgreSQL)", () => {
  it.runIf(Boolean(process.env.DATABASE_URL))("is finished after a restart, with no row lost or processed twice", async () => {
    const database = await createTestDatabase();
    await database.db.close();
    const dataDir = mkdtempSync(path.join(tmpdir(), "fiu-data-"));
    const env = {
      DATABASE_URL: database.url!,
      ADMIN_TOKEN: "kill-test-admin-token-0000",
      KEY_ENCRYPTION_SECRET: "kill-test-key-encryption-secret-000000000",
      JOBS_POLL_INTERVAL_MS: "500",
      JOBS_SUPERVISE_INTERVAL_SECONDS: "2",
      BULK_HEARTBEAT_SECONDS: "10",
      BULK_CHUNK_SIZE: "20",
      BULK_CONCURRENCY: "2",
    };
    const admin = { authorization: "Bearer kill-test-admin-token-0000", "content-type": "application/json" };
    const first = await startServer(dataDir, env);
    try {
      await fetch(`${first.url}/admin/v1/organisations`, { method: "POST", headers: admin, body: JSON.stringify({ organisationId: "kill-org", name: "Kill" }) });
      const app: any = await (await fetch(`${first.url}/admin/v1/organisations/kill-org/apps`, { method: "POST", headers: admin, body: JSON.stringify({ appIdentifier: "kill-app" }) })).json();
      const headers = { client_id: app.client_id, client_secret: app.client_secret, organisationId: "kill-org", appIdentifier: "kill-app" };
      const consentIds: string[] = [];
      for (let i = 0; i < 120; i++) {
        const consentID = randomUUID();
        consentIds.push(consentID);
        await fetch(`${first.url}/admin/v1/consents`, { method: "POST", headers: admin, body: JSON.stringify({ consentID, organisationId: "kill-org", type: "PERIODIC", state: "ACTIVE" }) });
        await fetch(`${first.url}/admin/v1/consents/${consentID}/links`, { method: "POST", headers: admin, body: JSON.stringify({ linkReferenceNumber: randomUUID(), fipId: "SIM-FIP", fipName: "Sim", fiType: "DEPOSIT", maskedAccountNumber: "XXXX1" }) });
      }
      const form = new FormData();
      form.append("file", new Blob([`consentId\n${consentIds.join("\n")}\n`], { type: "text/csv" }), "kill.csv");
      const uploaded: any = await (await fetch(`${first.url}/fi/requests/schedule/upload/v3`, { method: "POST", headers, body: form })).json();
      const batchUrl = (url: string) => `${url}/fi/requests/schedule/batches/${uploaded.data.batch_id}`;
      for (;;) {
        const counts = ((await (await fetch(batchUrl(first.url), { headers })).json()) as any).data.counts;
        if (counts.DATA_READY >= 10) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      first.child.kill("SIGKILL");
      await first.exited;

      const second = await startServer(dataDir, env);
      try {
        let data: any;
        for (let i = 0; i < 240; i++) {
          data = ((await (await fetch(batchUrl(second.url), { headers })).json()) as any).data;
          if (data.status === "COMPLETED" || data.status === "COMPLETED_WITH_ERRORS") break;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        expect(data.status).toBe("COMPLETED");
        expect(data.counts).toEqual({ SCHEDULED: 0, REQUESTED: 0, DATA_READY: 120, FAILED: 0 });
        const check = new pg.Client({ connectionString: database.url });
        await check.connect();
        const { rows } = await check.query(
          `SELECT r."rowNumber", count(DISTINCT s.id) AS snapshots FROM "BulkRow" r LEFT JOIN "FiDataSnapshot" s ON s."journeyId" = r."journeyId"
           WHERE r."batchId" = $1 GROUP BY r."rowNumber"`,
          [uploaded.data.batch_id],
        );
        await check.end();
        expect(rows).toHaveLength(120);
        for (const row of rows) expect(Number(row.snapshots)).toBe(1);
      } finally {
        second.child.kill("SIGTERM");
        await second.exited;
      }
    } finally {
      first.child.kill("SIGKILL");
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
