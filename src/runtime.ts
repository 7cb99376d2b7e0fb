import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.ts";
import type { Config } from "./config.ts";
import { createContext, type AppContext } from "./context.ts";
import { openDatabase, type Database } from "./db/database.ts";
import { migrate } from "./db/migrator.ts";
import type { LogStream } from "./http/logging.ts";
import { seedDemo } from "./domain/demo/seed.ts";
import { startBoss } from "./jobs/boss.ts";

export interface Service {
  app: FastifyInstance;
  ctx: AppContext;
  /** Stops accepting, finishes in-flight work, closes the database. */
  close(): Promise<void>;
}

/** Today in India, YYYY-MM-DD: the demo data ends yesterday. */
export function demoAsOf(now = new Date()): string {
  const ist = new Date(now.getTime() + 5.5 * 3600_000 - 86400_000);
  return ist.toISOString().slice(0, 10);
}

/**
 * Opens and migrates the database, seeds the demo tenant into an empty embedded database, and
 * builds the application. The same path serves `npm start` and the tests.
 */
export async function startService(config: Config, options: { db?: Database; logStream?: LogStream } = {}): Promise<Service> {
  const db = options.db ?? openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let boss: Awaited<ReturnType<typeof startBoss>> | undefined;
  try {
    await migrate(db);
    const ctx = createContext(config, db);
    const app = await buildApp(ctx, options.logStream ? { logStream: options.logStream } : {});
    boss = await startBoss(db, config.jobs, (error) => app.log.error({ err: error }, "job queue error"));
    // WORKERS=false: an API-only instance; its jobs are done by instances that run workers.
    await ctx.webhooks.start(boss, config.jobs.workers);
    await ctx.keys.start();
    ctx.bulk.attach(boss);
    await ctx.bulkProcessor.start(boss, config.jobs.workers);
    await ctx.analytics.start(boss, config.jobs.workers, config.jobs.pollingIntervalSeconds);
    if (config.seedDemoWhenEmpty && (await db.prisma.organisation.count()) === 0) {
      await seedDemo(ctx, { asOf: demoAsOf() });
      app.log.info("seeded the demo tenant into the empty database (see README: Demo data)");
    }
    if (config.adminTokenIsDemoDefault) {
      app.log.warn("ADMIN_TOKEN is not set: the operator API accepts the demo token demo-admin-token; set ADMIN_TOKEN outside local use");
    }
    return {
      app,
      ctx,
      async close() {
        ctx.lifecycle.shuttingDown = true;
        ctx.keys.stop();
        await app.close();
        await ctx.sdk.close();
        // Lets running jobs finish (a webhook attempt in flight is recorded), then stops polling.
        await boss?.stop({ graceful: true, timeout: config.shutdownTimeoutMs, close: false });
        await db.close();
      },
    };
  } catch (error) {
    await boss?.stop({ graceful: false, close: false }).catch(() => {});
    await db.close().catch(() => {});
    throw error;
  }
}
