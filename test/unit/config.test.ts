import { describe, expect, it } from "vitest";
import { ConfigError, DEMO_ADMIN_TOKEN, loadConfig } from "../../src/config.ts";

const SECRET = "a-key-encryption-secret-of-32-chars!";

describe("configuration", () => {
  it("defaults to the embedded database with the demo operator token and demo seeding", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 3000,
      databaseUrl: undefined,
      adminToken: DEMO_ADMIN_TOKEN,
      adminTokenIsDemoDefault: true,
      seedDemoWhenEmpty: true,
      fiDataPageSize: 100,
      sdkTokenTtlSeconds: 900,
      tls: null,
    });
    expect(config.dataDir.endsWith(".data")).toBe(true);
  });

  it("turns the operator API off on PostgreSQL without ADMIN_TOKEN, and does not seed", () => {
    const config = loadConfig({ DATABASE_URL: "postgresql://u@db:5432/fiu", KEY_ENCRYPTION_SECRET: SECRET });
    expect(config.adminToken).toBeNull();
    expect(config.seedDemoWhenEmpty).toBe(false);
  });

  it("takes an explicit ADMIN_TOKEN everywhere", () => {
    expect(loadConfig({ DATABASE_URL: "postgresql://u@db/fiu", ADMIN_TOKEN: "a-long-operator-token", KEY_ENCRYPTION_SECRET: SECRET }).adminToken).toBe("a-long-operator-token");
  });

  it.each([
    [{ PORT: "http" }, /PORT must be a whole number/],
    [{ PORT: "70000" }, /PORT/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL must be a postgresql/],
    [{ TLS_CERT_FILE: "cert.pem" }, /TLS_CERT_FILE and TLS_KEY_FILE must be set together/],
    [{ ADMIN_TOKEN: "short" }, /at least 16 characters/],
    [{ SEED_DEMO: "maybe" }, /SEED_DEMO must be true or false/],
    [{ FI_DATA_PAGE_SIZE: "0" }, /FI_DATA_PAGE_SIZE/],
    [{ BASE_PATH_PREFIX: "no-slash" }, /BASE_PATH_PREFIX must be a path/],
    [{ DATABASE_URL: "postgresql://u@db/fiu" }, /KEY_ENCRYPTION_SECRET must be set/],
    [{ KEY_ENCRYPTION_SECRET: "too-short" }, /KEY_ENCRYPTION_SECRET must be at least 32 characters/],
  ])("refuses %o", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
