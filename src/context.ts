import { keySecret, type Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import { ConsentRepository } from "./db/repositories/consents.ts";
import { FiDataReader, FiDataRepository } from "./db/repositories/fi-data.ts";
import { TenantRepository } from "./db/repositories/tenants.ts";
import { WebhookRepository } from "./db/repositories/webhooks.ts";
import { WebhookService } from "./domain/webhooks.ts";
import { RateLimitPolicy } from "./domain/rate-limits.ts";
import { KeyRepository } from "./db/repositories/keys.ts";
import { SdkSessionRepository } from "./db/repositories/sdk-sessions.ts";
import { KeyService } from "./domain/sdk/keys.ts";
import { Sealer } from "./domain/sdk/sealing.ts";
import { SdkSessionService } from "./domain/sdk/sessions.ts";
import { TokenSigner } from "./domain/sdk/token-signer.ts";
import { BulkRepository } from "./db/repositories/bulk.ts";
import { BulkService } from "./domain/bulk/service.ts";
import { BulkProcessor } from "./domain/bulk/processor.ts";
import { SimulatedAa } from "./aa/simulator.ts";
import { AnalyticsRepository } from "./db/repositories/analytics.ts";
import { AnalyticsService } from "./domain/analytics/service.ts";
import { ConsentService } from "./domain/consents.ts";
import { IngestionService } from "./domain/fi-data/ingestion.ts";
import { FiDataReadService } from "./domain/fi-data/reading.ts";
import { PageCache } from "./domain/fi-data/page-cache.ts";
import { accountFromRebit } from "./serialization/rebit.ts";
import { parseRebitXml } from "./serialization/xml.ts";
import { TenantService } from "./domain/tenants.ts";

/** The services the handlers call; built once per application instance. */
export interface AppContext {
  config: Config;
  db: Database;
  tenants: TenantService;
  consents: ConsentService;
  ingestion: IngestionService;
  fiDataReads: FiDataReadService;
  webhooks: WebhookService;
  rateLimits: RateLimitPolicy;
  keys: KeyService;
  sdk: SdkSessionService;
  bulk: BulkService;
  bulkProcessor: BulkProcessor;
  analytics: AnalyticsService;
  lifecycle: { shuttingDown: boolean };
}

export function createContext(config: Config, db: Database): AppContext {
  const tenantRepository = new TenantRepository(db.prisma);
  const consentRepository = new ConsentRepository(db.prisma);
  const fiDataRepository = new FiDataRepository(db);
  const ingestion = new IngestionService(consentRepository, fiDataRepository, (account) =>
    accountFromRebit(parseRebitXml(account.data), { fiType: account.fiType }),
  );
  const webhooks = new WebhookService(new WebhookRepository(db.prisma), {
    ...config.webhooks,
    pollingIntervalSeconds: config.jobs.pollingIntervalSeconds,
  });
  const analytics = new AnalyticsService(new AnalyticsRepository(db), consentRepository);
  ingestion.onJourneyStored((session, result, consentID) => webhooks.recordDataReady(session, result, consentID));
  ingestion.onJourneyStored(analytics.scheduleForJourney);
  const tenants = new TenantService(tenantRepository);
  const secret = keySecret(config);
  const keys = new KeyService(new KeyRepository(db.prisma), new Sealer(secret, "service-keys"), config.sdk, config.sdkTokenTtlSeconds);
  const sdk = new SdkSessionService(keys, new TokenSigner(), tenants, new SdkSessionRepository(db), new Sealer(secret, "sdk-user-profiles"), {
    tokenTtlSeconds: config.sdkTokenTtlSeconds,
    issuer: config.sdk.issuer,
  });
  const bulkRepository = new BulkRepository(db);
  return {
    config,
    db,
    tenants,
    consents: new ConsentService(consentRepository, tenantRepository),
    ingestion,
    fiDataReads: new FiDataReadService(new FiDataReader(db), consentRepository, config.fiDataPageSize, new PageCache(config.fiDataCacheBytes)),
    webhooks,
    rateLimits: new RateLimitPolicy(tenants, config.rateLimit),
    keys,
    sdk,
    bulk: new BulkService(bulkRepository),
    analytics,
    bulkProcessor: new BulkProcessor(bulkRepository, consentRepository, new SimulatedAa(), ingestion, {
      ...config.bulk,
      pollingIntervalSeconds: config.jobs.pollingIntervalSeconds,
    }),
    lifecycle: { shuttingDown: false },
  };
}
