import { createHash, createHmac, createSecretKey, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

const scrypt = (secret: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(secret, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

// OWASP recommends N=2^17 (about 130 ms and 128 MiB a check on these 2-core machines); 2^15
// costs about 60 ms and 32 MiB, and successful checks are cached for a minute (CredentialCache).
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, KEY_LENGTH, { ...COST, maxmem: MAX_MEMORY });
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(secret, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY,
  });
  return timingSafeEqual(actual, expected);
}

// A hash of a random secret, checked against when the client_id is unknown so that a missing
// client takes as long to refuse as a wrong secret.
let decoyHash: Promise<string> | undefined;
export function decoyVerify(secret: string): Promise<boolean> {
  decoyHash ??= hashSecret(randomBytes(24).toString("base64url"));
  return decoyHash.then((stored) => verifySecret(secret, stored)).then(() => false);
}

export function generateSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Remembers, for a short time, that a client_id/secret pair verified, so that not every request
 * pays for scrypt. It holds an HMAC of the pair under a key that lives only in this process,
 * never the secret itself.
 */
export class CredentialCache<T> {
  // A key object: preparing a raw key on every HMAC costs several times the HMAC itself.
  readonly #key = createSecretKey(randomBytes(32));
  readonly #entries = new Map<string, { value: T; expiresAt: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;

  constructor(ttlMs = 60_000, maxEntries = 10_000) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
  }

  #fingerprint(clientId: string, secret: string): string {
    return createHmac("sha256", this.#key).update(clientId).update("\u0000").update(secret).digest("base64url");
  }

  get(clientId: string, secret: string): T | undefined {
    const fingerprint = this.#fingerprint(clientId, secret);
    const entry = this.#entries.get(fingerprint);
    if (!entry) return undefined;
    if (entry.expiresAt < Date.now()) {
      this.#entries.delete(fingerprint);
      return undefined;
    }
    return entry.value;
  }

  set(clientId: string, secret: string, value: T): void {
    if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
    this.#entries.set(this.#fingerprint(clientId, secret), { value, expiresAt: Date.now() + this.#ttlMs });
  }

  clear(): void {
    this.#entries.clear();
  }
}
