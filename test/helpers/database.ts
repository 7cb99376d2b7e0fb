import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../../src/db/database.ts";
import { createScratchDatabase } from "../../src/db/scratch-database.ts";

export interface TestDatabase {
  db: Database;
  /** A new connection to the same database (after the first was closed), as a restarted process would open. */
  reopen(): Database;
  /** The connection string of this test's own PostgreSQL database, when on PostgreSQL. */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A database of the test's own: PGlite in memory by default; with DATABASE_URL, a new database
 * on that PostgreSQL server, dropped afterwards.
 */
export async function createTestDatabase(options: { persistent?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dataDir = options.persistent ? mkdtempSync(path.join(tmpdir(), "fiu-test-")) : "memory://";
    let db = openDatabase({ dataDir });
    return {
      get db() {
        return db;
      },
      url: undefined,
      reopen: () => (db = openDatabase({ dataDir })),
      async drop() {
        await db.close();
        if (options.persistent) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const scratch = await createScratchDatabase(serverUrl, "fiu_test");
  const url = new URL(scratch.url);
  let db = openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
  return {
    get db() {
      return db;
    },
    url: url.toString(),
    reopen: () => (db = openDatabase({ databaseUrl: url.toString(), poolSize: 5 })),
    async drop() {
      await db.close().catch(() => {});
      await scratch.drop();
    },
  };
}
