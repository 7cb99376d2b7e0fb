import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_HEADERS } from "../helpers/service.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

interface Running {
  child: ChildProcess;
  url: string;
  logs: Array<Record<string, unknown>>;
  exited: Promise<number | null>;
}

/** `npm start` as a newcomer runs it: the real entry point, the embedded database in dataDir. */
function startServer(dataDir: string): Promise<Running> {
  const child = spawn(process.execPath, ["src/server.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info" },
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
