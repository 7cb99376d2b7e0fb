import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import { ConsentRepository } from "./db/repositories/consents.ts";
import { FiDataRepository } from "./db/repositories/fi-data.ts";
import { TenantRepository } from "./db/repositories/tenants.ts";
import { ConsentService } from "./domain/consents.ts";
import { IngestionService } from "./domain/fi-data/ingestion.ts";
import { TenantService } from "./domain/tenants.ts";

/** The services the handlers call; built once per application instance. */
export interface AppContext {
  config: Config;
  db: Database;
  tenants: TenantService;
  consents: ConsentService;
  ingestion: IngestionService;
  lifecycle: { shuttingDown: boolean };
}

export function createContext(config: Config, db: Database): AppContext {
  const tenantRepository = new TenantRepository(db.prisma);
  const consentRepository = new ConsentRepository(db.prisma);
  const fiDataRepository = new FiDataRepository(db);
  return {
    config,
    db,
    tenants: new TenantService(tenantRepository),
    consents: new ConsentService(consentRepository, tenantRepository),
    ingestion: new IngestionService(consentRepository, fiDataRepository),
    lifecycle: { shuttingDown: false },
  };
}
