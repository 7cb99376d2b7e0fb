import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { loadConfig, type Config } from "../../src/config.ts";
import type { AppContext } from "../../src/context.ts";
import { seedDemo, DEMO } from "../../src/domain/demo/seed.ts";
import { startService } from "../../src/runtime.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";

export const ADMIN_TOKEN = "test-admin-token-0123456789";
/** Tests never write a key-encryption secret file: they pass one. */
export const TEST_KEY_SECRET = "test-key-encryption-secret-0123456789abcdef";
/** The demo data's "as of" date in tests, so that figures are reproducible. */
export const DEMO_AS_OF = "2026-10-31";

export interface TestService {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  close(): Promise<void>;
  /** A call to the operator API with the admin token. */
  admin(method: InjectOptions["method"], url: string, payload?: unknown): Promise<LightMyRequestResponse>;
}

export interface TestServiceOptions {
  env?: Record<string, string>;
  /** An existing test database (for restart tests); a new one otherwise. */
  database?: TestDatabase;
  /** With `database`: open it anew, as a restarted process would. */
  reopen?: boolean;
  /** Seeds the demo tenant (as of DEMO_AS_OF). */
  demo?: boolean;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    LOG_LEVEL: "silent",
    SEED_DEMO: "false",
    ADMIN_TOKEN,
    KEY_ENCRYPTION_SECRET: TEST_KEY_SECRET,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const service = await startService(config, { db: options.reopen ? database.reopen() : database.db });
  if (options.demo) await seedDemo(service.ctx, { asOf: DEMO_AS_OF });
  await service.app.ready();
  return {
    app: service.app,
    ctx: service.ctx,
    config,
    async close() {
      await service.close().catch(() => {});
      if (!options.database) await database.drop();
    },
    admin: (method, url, payload) =>
      service.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        ...(payload === undefined ? {} : { payload: payload as InjectOptions["payload"] }),
      }),
  };
}

export const DEMO_HEADERS = {
  client_id: DEMO.clientId,
  client_secret: DEMO.clientSecret,
  organisationId: DEMO.organisationId,
  appIdentifier: DEMO.appIdentifier,
} as const;

export interface TenantFixture {
  organisationId: string;
  headers: Record<string, string>;
  webhookSecret: string;
}

let counter = 0;

/** A new organisation with one application, through the operator API. */
export async function createTenant(service: TestService, organisationId = `org-${process.pid}-${++counter}`): Promise<TenantFixture> {
  const org = await service.admin("POST", "/admin/v1/organisations", { organisationId, name: `Org ${organisationId}` });
  if (org.statusCode !== 201) throw new Error(`organisation: ${org.statusCode} ${org.body}`);
  const app = await service.admin("POST", `/admin/v1/organisations/${organisationId}/apps`, { appIdentifier: "app-1" });
  if (app.statusCode !== 201) throw new Error(`app: ${app.statusCode} ${app.body}`);
  const created = app.json();
  return {
    organisationId,
    webhookSecret: org.json().webhookSecret,
    headers: {
      client_id: created.client_id,
      client_secret: created.client_secret,
      organisationId,
      appIdentifier: "app-1",
    },
  };
}
