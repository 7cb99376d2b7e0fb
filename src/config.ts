import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface TlsConfig {
  certFile: string;
  keyFile: string;
}

export interface Config {
  host: string;
  port: number;
  /** PostgreSQL connection string; absent means the embedded PGlite database in dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Null when the operator API is off. */
  adminToken: string | null;
  adminTokenIsDemoDefault: boolean;
  seedDemoWhenEmpty: boolean;
  tls: TlsConfig | null;
  logLevel: string;
  bodyLimitBytes: number;
  fiDataPageSize: number;
  fiDataCacheBytes: number;
  sdkTokenTtlSeconds: number;
  rateLimit: { max: number; windowSeconds: number; namespace: string };
  redisUrl: string | undefined;
  basePrefix: string;
  pfmPrefix: string;
  shutdownTimeoutMs: number;
  jobs: { pollingIntervalSeconds: number; superviseIntervalSeconds: number; workers: boolean };
  bulk: { chunkSize: number; concurrency: number; heartbeatSeconds: number; defaultRangeMonths: number };
  /** Seals service private keys and users' PAN and mobile at rest; see keySecret() for the embedded default. */
  keyEncryptionSecret: string | undefined;
  sdk: { signingKeysFile: string | undefined; encryptionKeyFile: string | undefined; issuer: string };
  webhooks: { retryDelaySeconds: number; retryDelayMaxSeconds: number; horizonSeconds: number; timeoutMs: number };
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function prefix(env: Env, name: string): string {
  const raw = (env[name] ?? "").trim();
  if (raw === "" || raw === "/") return "";
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(raw)) {
    throw new ConfigError(`${name} must be a path such as /api/v1, got "${raw}"`);
  }
  return raw;
}

export const DEMO_ADMIN_TOKEN = "demo-admin-token";

/**
 * The key-encryption secret: configured, or on the embedded database generated once and kept
 * beside it (DATA_DIR/key-encryption.secret, readable by the owner only).
 */
export function keySecret(config: Config): string {
  if (config.keyEncryptionSecret) return config.keyEncryptionSecret;
  const file = path.join(config.dataDir, "key-encryption.secret");
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  }
  return readFileSync(file, "utf8").trim();
}

/** Reads and validates the configuration; every variable is documented in the README. */
export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL must be a postgresql:// connection string");
  }
  const certFile = env.TLS_CERT_FILE?.trim();
  const keyFile = env.TLS_KEY_FILE?.trim();
  if (Boolean(certFile) !== Boolean(keyFile)) {
    throw new ConfigError("TLS_CERT_FILE and TLS_KEY_FILE must be set together");
  }
  const explicitAdminToken = env.ADMIN_TOKEN?.trim();
  if (explicitAdminToken !== undefined && explicitAdminToken !== "" && explicitAdminToken.length < 16) {
    throw new ConfigError("ADMIN_TOKEN must be at least 16 characters");
  }
  const embedded = databaseUrl === undefined;
  const keyEncryptionSecret = env.KEY_ENCRYPTION_SECRET?.trim() || undefined;
  if (keyEncryptionSecret !== undefined && keyEncryptionSecret.length < 32) {
    throw new ConfigError("KEY_ENCRYPTION_SECRET must be at least 32 characters");
  }
  if (!embedded && !keyEncryptionSecret) {
    throw new ConfigError("KEY_ENCRYPTION_SECRET must be set (32 or more characters) with DATABASE_URL: it seals the SDK keys and users' PAN and mobile at rest");
  }
  const adminToken = explicitAdminToken || (embedded ? DEMO_ADMIN_TOKEN : null);

  return {
    host: env.HOST?.trim() || "127.0.0.1",
    port: integer(env, "PORT", 3000, 0, 65535),
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR?.trim() || ".data"),
    adminToken,
    adminTokenIsDemoDefault: adminToken === DEMO_ADMIN_TOKEN && !explicitAdminToken,
    seedDemoWhenEmpty: flag(env, "SEED_DEMO", embedded),
    tls: certFile && keyFile ? { certFile, keyFile } : null,
    logLevel: env.LOG_LEVEL?.trim() || "info",
    bodyLimitBytes: integer(env, "BODY_LIMIT_BYTES", 1024 * 1024, 1024, 64 * 1024 * 1024),
    fiDataPageSize: integer(env, "FI_DATA_PAGE_SIZE", 100, 1, 10000),
    fiDataCacheBytes: integer(env, "FI_DATA_CACHE_MB", 64, 0, 4096) * 1024 * 1024,
    sdkTokenTtlSeconds: integer(env, "SDK_TOKEN_TTL_SECONDS", 900, 30, 86400),
    rateLimit: {
      max: integer(env, "RATE_LIMIT_MAX", 600, 1, 1_000_000),
      windowSeconds: integer(env, "RATE_LIMIT_WINDOW_SECONDS", 60, 1, 86400),
      namespace: env.RATE_LIMIT_NAMESPACE?.trim() || "fiu-rate-limit:",
    },
    redisUrl: env.REDIS_URL?.trim() || undefined,
    basePrefix: prefix(env, "BASE_PATH_PREFIX"),
    pfmPrefix: prefix(env, "PFM_PATH_PREFIX"),
    shutdownTimeoutMs: integer(env, "SHUTDOWN_TIMEOUT_MS", 10000, 100, 600000),
    jobs: {
      pollingIntervalSeconds: integer(env, "JOBS_POLL_INTERVAL_MS", 2000, 500, 60000) / 1000,
      superviseIntervalSeconds: integer(env, "JOBS_SUPERVISE_INTERVAL_SECONDS", 30, 1, 3600),
      workers: flag(env, "WORKERS", true),
    },
    bulk: {
      chunkSize: integer(env, "BULK_CHUNK_SIZE", 200, 1, 10000),
      concurrency: integer(env, "BULK_CONCURRENCY", 8, 1, 64),
      heartbeatSeconds: integer(env, "BULK_HEARTBEAT_SECONDS", 30, 10, 3600),
      defaultRangeMonths: integer(env, "BULK_DEFAULT_RANGE_MONTHS", 12, 1, 120),
    },
    keyEncryptionSecret,
    sdk: {
      signingKeysFile: env.SDK_SIGNING_KEYS_FILE?.trim() || undefined,
      encryptionKeyFile: env.SDK_ENCRYPTION_KEY_FILE?.trim() || undefined,
      issuer: env.SDK_TOKEN_ISSUER?.trim() || "fiu-data-service",
    },
    webhooks: {
      retryDelaySeconds: integer(env, "WEBHOOK_RETRY_DELAY_SECONDS", 10, 1, 3600),
      retryDelayMaxSeconds: integer(env, "WEBHOOK_RETRY_DELAY_MAX_SECONDS", 3600, 1, 86400),
      horizonSeconds: integer(env, "WEBHOOK_RETRY_HORIZON_SECONDS", 86400, 1, 7 * 86400),
      timeoutMs: integer(env, "WEBHOOK_TIMEOUT_MS", 10000, 100, 60000),
    },
  };
}
