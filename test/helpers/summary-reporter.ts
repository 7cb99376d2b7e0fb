import type { Reporter, SerializedError, TestModule } from "vitest/node";

/** Prints the plain `N passed, N failed` line that CI reads, after vitest's own summary. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failedHere++;
        else skipped++;
      }
      // A file that failed outside its tests (an import, a beforeAll or afterAll) counts as one failure.
      if (module.state() === "failed" && failedHere === 0) failedHere = 1;
      failed += failedHere;
    }
    // An error outside any test (a crashed worker, an unhandled rejection) fails the run too.
    failed += unhandledErrors.length;
    const database = process.env.DATABASE_URL ? "postgresql" : "pglite";
    process.stdout.write(`\n${database}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}\n`);
  }
}
