/** Applies pending migrations to DATABASE_URL, or to the embedded database in DATA_DIR. */
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrate } from "../src/db/migrator.ts";

const config = loadConfig();
const db = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const applied = await migrate(db);
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "the database is up to date");
} finally {
  await db.close();
}
