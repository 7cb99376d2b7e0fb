/** Creates the demo tenant (README: Demo data) in DATABASE_URL or the embedded database, if missing. */
import { loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrate } from "../src/db/migrator.ts";
import { seedDemo } from "../src/domain/demo/seed.ts";
import { demoAsOf } from "../src/runtime.ts";

const config = loadConfig();
const db = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  const created = await seedDemo(createContext(config, db), { asOf: demoAsOf() });
  console.log(created ? "demo tenant created (organisationId demo-org)" : "demo tenant already present; nothing changed");
} finally {
  await db.close();
}
