import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "../../src/db/database.ts";

export interface TestDatabase {
  db: Database;
  /** The connection string of this test's own PostgreSQL database, when on PostgreSQL. */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A database of the test's own: PGlite in memory by default; with DATABASE_URL, a new database
 * on that PostgreSQL server, dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const db = openDatabase({ dataDir: "memory://" });
    return { db, url: undefined, drop: () => db.close() };
  }
  const name = `fiu_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close().catch(() => {});
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
