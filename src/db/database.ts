import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../../generated/prisma/client.ts";

export type DatabaseKind = "pglite" | "postgresql";

/** Raw SQL on one connection (or, on PGlite, the only one). */
export interface SqlSession {
  /** One parameterised statement. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Several statements without parameters. */
  exec(sql: string): Promise<void>;
  /** Several statements without parameters; the rows of the last one. */
  execRows(sql: string): Promise<unknown[]>;
}

export interface Database extends SqlSession {
  kind: DatabaseKind;
  prisma: PrismaClient;
  /** Runs fn in a transaction on one connection; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /** Runs fn on one dedicated connection, outside any transaction. */
  session<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory, or "memory://" for a throw-away database. */
  dataDir?: string;
  poolSize?: number;
}

// PostgreSQL's own text forms for the types where JavaScript numbers or Dates would lose
// information: money stays an exact string, int8 ids stay strings.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);

function openPglite(dataDir: string): Database {
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir);
  const sessionOf = (q: Pick<PGlite, "query" | "exec">): SqlSession => ({
    async query<Row>(sql: string, params: unknown[] = []) {
      return (await q.query<Row>(sql, params)).rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
    async execRows(sql: string) {
      return (await q.exec(sql)).at(-1)?.rows ?? [];
    },
  });
  const own = sessionOf(client);
  return {
    kind: "pglite",
    prisma: new PrismaClient({ adapter: new PrismaPGlite(client) }),
    ...own,
    transaction: (fn) => client.transaction((tx) => fn(sessionOf(tx))),
    session: (fn) => fn(own),
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

// Parameterised statements are prepared once per connection under a name derived from their
// text, which spares PostgreSQL parsing (and, after a few runs, planning) the same statement on
// every call. The service's own SQL is a fixed set of strings; in case a library builds SQL
// dynamically, statements beyond the first MAX_PREPARED distinct ones run unprepared.
const MAX_PREPARED = 500;
const statementNames = new Map<string, string>();
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (!name && statementNames.size < MAX_PREPARED) {
    name = `s_${createHash("sha1").update(sql).digest("hex").slice(0, 16)}`;
    statementNames.set(sql, name);
  }
  return name;
}

function openPostgres(connectionString: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle client's network error must not crash the process; the next query reports it.
  pool.on("error", () => {});
  const sessionOf = (q: pg.Pool | pg.PoolClient): SqlSession => ({
    async query<Row>(sql: string, params: unknown[] = []) {
      if (params.length === 0) return (await q.query(sql)).rows as Row[];
      const name = statementName(sql);
      return (await (name ? q.query({ name, text: sql, values: params }) : q.query(sql, params))).rows as Row[];
    },
    async exec(sql: string) {
      await q.query(sql);
    },
    async execRows(sql: string) {
      const result = (await q.query(sql)) as pg.QueryResult | pg.QueryResult[];
      return (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? [];
    },
  });
  const withClient = async <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  };
  return {
    kind: "postgresql",
    prisma: new PrismaClient({ adapter: new PrismaPg(pool) }),
    ...sessionOf(pool),
    transaction: (fn) =>
      withClient(async (client) => {
        await client.query("BEGIN");
        try {
          const result = await fn(sessionOf(client));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {});
          throw error;
        }
      }),
    session: (fn) => withClient((client) => fn(sessionOf(client))),
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir ?? "memory://");
}
