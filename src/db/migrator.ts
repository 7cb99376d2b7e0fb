import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database, SqlSession } from "./database.ts";

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../prisma/migrations");

// Prisma's own bookkeeping table and advisory-lock key: a database migrated here is one that
// `prisma migrate status` and `prisma migrate deploy` recognise.
const BOOKKEEPING_DDL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;
const PRISMA_ADVISORY_LOCK = 72707369;

export class MigrationError extends Error {}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

async function appliedMigrations(session: SqlSession): Promise<Map<string, AppliedRow>> {
  const rows = await session.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
  );
  return new Map(rows.map((row) => [row.migration_name, row]));
}

/**
 * Applies every migration of `dir` not yet recorded, each in its own transaction together with
 * its record, under Prisma's advisory lock so that several instances starting at once apply each
 * migration once. Returns the names applied.
 */
export async function migrate(db: Database, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = readMigrations(dir);
  return db.session(async (session) => {
    await session.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    try {
      await session.exec(BOOKKEEPING_DDL);
      const applied = await appliedMigrations(session);
      const names: string[] = [];
      for (const migration of migrations) {
        const record = applied.get(migration.name);
        if (record) {
          if (!record.finished_at) {
            throw new MigrationError(`migration ${migration.name} failed earlier and must be resolved by hand`);
          }
          if (record.checksum !== migration.checksum) {
            throw new MigrationError(`migration ${migration.name} was changed after it was applied`);
          }
          continue;
        }
        await session.exec("BEGIN");
        try {
          await session.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
            [randomUUID(), migration.checksum, migration.name],
          );
          await session.exec(migration.sql);
          await session.query(
            `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE migration_name = $1`,
            [migration.name],
          );
          await session.exec("COMMIT");
        } catch (error) {
          await session.exec("ROLLBACK");
          throw new MigrationError(`migration ${migration.name} failed: ${(error as Error).message}`);
        }
        names.push(migration.name);
      }
      return names;
    } finally {
      await session.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]);
    }
  });
}
