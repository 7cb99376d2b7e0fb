#!/usr/bin/env node
// Regenerates everything under generated/ from its sources:
//   openapi/*.yaml        -> generated/openapi/*.json (bundled by Redocly: shared components inlined)
//                         -> generated/api/*.ts       (openapi-typescript)
//   prisma/schema.prisma  -> generated/prisma/        (Prisma client)
// `--check` regenerates and fails when the committed files differ (CI runs it).
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const apis = ["fiu", "pfm", "admin"];
const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } });

for (const dir of ["generated/openapi", "generated/api", "generated/prisma"]) {
  rmSync(path.join(root, dir), { recursive: true, force: true });
  mkdirSync(path.join(root, dir), { recursive: true });
}

for (const api of apis) {
  run(bin("redocly"), ["bundle", api, "--output", `generated/openapi/${api}.json`]);
}
// openapi-typescript takes the documents and output paths from redocly.yaml.
run(bin("openapi-typescript"), []);

// `prisma generate` needs no schema engine, but the CLI insists that the file it would use exists;
// it cannot be downloaded here, so any existing file stands in for it.
const stand_in = path.join(root, "package.json");
run(bin("prisma"), ["generate"], {
  PRISMA_SCHEMA_ENGINE_BINARY: stand_in,
  PRISMA_QUERY_ENGINE_LIBRARY: stand_in,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
});

if (process.argv.includes("--check")) {
  const changed = execFileSync("git", ["status", "--porcelain", "--", "generated"], { cwd: root }).toString();
  if (changed.trim()) {
    console.error(`generated/ is stale; run \`npm run generate\` and commit:\n${changed}`);
    process.exit(1);
  }
  console.log("generated/ is fresh");
}
