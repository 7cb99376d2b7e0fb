import { PgBoss } from "pg-boss";
import type { Database, SqlSession } from "../db/database.ts";

/** pg-boss's way into a database: one statement with parameters, or a script without. */
export interface BossExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Runs pg-boss's SQL through our own connection (or transaction). Parameterless SQL may hold
 * several statements (pg-boss's schema scripts), which PGlite only accepts through `exec`.
 */
export function executorFor(session: SqlSession): BossExecutor {
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return { rows: await session.query(text, values) };
      return { rows: await session.execRows(text) };
    },
  };
}

/**
 * pg-boss on the service's database (PGlite or PostgreSQL), in the `pgboss` schema. Supervision
 * finds jobs whose worker stopped beating (a killed process) and hands them out again.
 */
export async function startBoss(db: Database, settings: { superviseIntervalSeconds: number }, onError: (error: Error) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    db: executorFor(db),
    schema: "pgboss",
    supervise: true,
    schedule: false,
    superviseIntervalSeconds: settings.superviseIntervalSeconds,
    monitorIntervalSeconds: settings.superviseIntervalSeconds,
  } as ConstructorParameters<typeof PgBoss>[0]);
  boss.on("error", onError);
  await boss.start();
  return boss;
}
