// Prisma CLI configuration. The service itself never runs the CLI's migrate commands (their engine
// cannot be downloaded on our machines); src/db/migrator.ts applies prisma/migrations and records
// them in _prisma_migrations exactly as Prisma does, so `prisma migrate status` / `deploy` still
// work wherever an operator has the engine.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/unused" },
});
