import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Every test file starts its own service on its own database (PGlite in memory, or a fresh
    // PostgreSQL database when DATABASE_URL is set); two workers match the machines' two cores.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
  },
});
