import { ConfigError, loadConfig, type Config } from "./config.ts";
import { startService } from "./runtime.ts";

const startedAt = performance.now();

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(2);
  }
  throw error;
}

const service = await startService(config);
const { app } = service;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, "shutting down: no new connections; finishing in-flight requests and jobs");
  const timer = setTimeout(() => {
    app.log.error("shutdown timed out; exiting");
    process.exit(1);
  }, config.shutdownTimeoutMs);
  timer.unref();
  try {
    await service.close();
    app.log.info("stopped");
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, "shutdown failed");
    process.exit(1);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

try {
  const address = await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { address, database: service.ctx.db.kind, startupMs: Math.round(performance.now() - startedAt) },
    `FIU data service listening on ${address}`,
  );
} catch (error) {
  app.log.error({ err: error }, "could not listen");
  await service.close();
  process.exit(1);
}
