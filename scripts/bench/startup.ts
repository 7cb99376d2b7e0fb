/**
 * Start-up time of `npm start` (node src/server.ts): from spawning the process to the first 200
 * from /readyz, on an empty embedded database (migrations + demo seed) and again on the same,
 * now populated, data directory. Prints one line per run.
 *
 *   npm run bench:startup [-- --runs 3]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 3;

async function timeStart(dataDir: string): Promise<{ readyMs: number; logMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ["src/server.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const { url, logMs } = await new Promise<{ url: string; logMs: number }>((resolve, reject) => {
    let buffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split("\n").slice(0, -1)) {
        const entry = JSON.parse(line);
        if (entry.address) resolve({ url: entry.address, logMs: entry.startupMs });
      }
      buffer = buffer.slice(buffer.lastIndexOf("\n") + 1);
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
  });
  while ((await fetch(`${url}/readyz`).catch(() => null))?.status !== 200) await new Promise((r) => setTimeout(r, 5));
  const readyMs = performance.now() - started;
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  return { readyMs, logMs };
}

console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), node ${process.version}`);
for (let run = 1; run <= runs; run++) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "fiu-bench-"));
  try {
    const empty = await timeStart(dataDir);
    const populated = await timeStart(dataDir);
    console.log(
      `run ${run}: empty embedded database (migrate + seed) ready in ${Math.round(empty.readyMs)} ms (in-process ${empty.logMs} ms); ` +
        `populated database ready in ${Math.round(populated.readyMs)} ms (in-process ${populated.logMs} ms)`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
