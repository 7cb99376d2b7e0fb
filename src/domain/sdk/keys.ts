import { createPrivateKey, randomBytes, type JsonWebKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { KeyRepository, StoredKey } from "../../db/repositories/keys.ts";
import { conflict } from "../errors.ts";
import type { Sealer } from "./sealing.ts";

export const SIGNING_ALG = "ES256";
export const KEY_WRAPPING_ALG = "ECDH-ES+A256KW";
export const CONTENT_ENC = "A256GCM";
const REFRESH_MS = 60_000;
// A retired key stays published this much longer than its last token lives, for clock skew.
const SKEW_MS = 60_000;

export interface PublicJwk extends JWK {
  kid: string;
  alg: string;
  use: "sig" | "enc";
}

interface LiveKey {
  kid: string;
  use: "sig" | "enc";
  publicJwk: PublicJwk;
  privateKey: KeyObject;
  retired: boolean;
  publishedUntil: number | null;
}

export interface KeySources {
  /** A JWKS file of private signing keys; the last one signs. Keys are then not rotated here. */
  signingKeysFile?: string | undefined;
  /** A private JWK file of the payload-encryption key. */
  encryptionKeyFile?: string | undefined;
}

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${what} ${file} is not a readable JSON file: ${(error as Error).message}`);
  }
}

/** Node's key object: what node:crypto signs with, and what jose accepts for JWE. */
const privateKeyOf = (jwk: JWK): KeyObject => createPrivateKey({ key: jwk as JsonWebKey, format: "jwk" });

function publicPart(jwk: JWK, kid: string, alg: string, use: "sig" | "enc"): PublicJwk {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid, alg, use } as PublicJwk;
}

async function newKey(use: "sig" | "enc"): Promise<{ kid: string; alg: string; publicJwk: PublicJwk; privateJwk: JWK }> {
  const alg = use === "sig" ? SIGNING_ALG : KEY_WRAPPING_ALG;
  const { publicKey, privateKey } = await generateKeyPair(use === "sig" ? "ES256" : "ECDH-ES+A256KW", { crv: "P-256", extractable: true });
  const kid = `${use}-${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString("hex")}`;
  return { kid, alg, publicJwk: publicPart(await exportJWK(publicKey), kid, alg, use), privateJwk: await exportJWK(privateKey) };
}

/**
 * The keys of SDK sessions: ES256 keys that sign session tokens and the ECDH-ES key that
 * integrations encrypt payloads to. From configuration files when given; otherwise generated on
 * first start and kept in the database, private parts sealed. Every instance reloads them each
 * minute, so a rotation reaches all of them.
 */
export class KeyService {
  readonly #repo: KeyRepository;
  readonly #sealer: Sealer;
  readonly #sources: KeySources;
  readonly #tokenTtlMs: number;
  #keys: LiveKey[] = [];
  #loadedAt = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(repo: KeyRepository, sealer: Sealer, sources: KeySources, tokenTtlSeconds: number) {
    this.#repo = repo;
    this.#sealer = sealer;
    this.#sources = sources;
    this.#tokenTtlMs = tokenTtlSeconds * 1000;
  }

  get configured(): boolean {
    return Boolean(this.#sources.signingKeysFile);
  }

  async start(): Promise<void> {
    await this.#ensureStoredKeys();
    await this.reload();
    this.#timer = setInterval(() => void this.reload().catch(() => {}), REFRESH_MS);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }

  async #ensureStoredKeys(): Promise<void> {
    const live = await this.#repo.live(new Date());
    for (const use of ["sig", "enc"] as const) {
      const fromFile = use === "sig" ? this.#sources.signingKeysFile : this.#sources.encryptionKeyFile;
      if (fromFile || live.some((key) => key.use === use.toUpperCase() && !key.retiredAt)) continue;
      const key = await newKey(use);
      await this.#repo.insert({ kid: key.kid, use: use === "sig" ? "SIG" : "ENC", alg: key.alg, publicJwk: key.publicJwk, privateSealed: this.#sealer.seal(JSON.stringify(key.privateJwk)) });
    }
  }

  #fromStore(stored: StoredKey): LiveKey {
    const use = stored.use === "SIG" ? "sig" : "enc";
    const privateJwk = JSON.parse(this.#sealer.open(stored.privateSealed)) as JWK;
    return {
      kid: stored.kid,
      use,
      publicJwk: stored.publicJwk as PublicJwk,
      privateKey: privateKeyOf(privateJwk),
      retired: stored.retiredAt !== null,
      publishedUntil: stored.expiresAt?.getTime() ?? null,
    };
  }

  #fromFile(jwk: JWK, use: "sig" | "enc", retired: boolean): LiveKey {
    const alg = use === "sig" ? SIGNING_ALG : KEY_WRAPPING_ALG;
    if (jwk.kty !== "EC" || jwk.crv !== "P-256" || !jwk.d || !jwk.kid) {
      throw new Error(`configured ${use} keys must be private EC P-256 JWKs with a kid`);
    }
    return { kid: jwk.kid, use, publicJwk: publicPart(jwk, jwk.kid, alg, use), privateKey: privateKeyOf(jwk), retired, publishedUntil: null };
  }

  async reload(): Promise<void> {
    const keys: LiveKey[] = [];
    for (const stored of await this.#repo.live(new Date())) {
      const fromFile = stored.use === "SIG" ? this.#sources.signingKeysFile : this.#sources.encryptionKeyFile;
      if (!fromFile) keys.push(this.#fromStore(stored));
    }
    if (this.#sources.signingKeysFile) {
      const set = readJson(this.#sources.signingKeysFile, "SDK_SIGNING_KEYS_FILE") as { keys?: JWK[] };
      if (!Array.isArray(set.keys) || set.keys.length === 0) throw new Error("SDK_SIGNING_KEYS_FILE must hold a JWKS with at least one key");
      for (const [index, jwk] of set.keys.entries()) keys.push(this.#fromFile(jwk, "sig", index < set.keys.length - 1));
    }
    if (this.#sources.encryptionKeyFile) keys.push(this.#fromFile(readJson(this.#sources.encryptionKeyFile, "SDK_ENCRYPTION_KEY_FILE") as JWK, "enc", false));
    this.#keys = keys;
    this.#loadedAt = Date.now();
  }

  /** The key that signs new tokens: the newest signing key not retired. */
  signingKey(): LiveKey {
    const key = this.#keys.filter((candidate) => candidate.use === "sig" && !candidate.retired).at(-1);
    if (!key) throw new Error("no active signing key");
    return key;
  }

  /** The payload-encryption key with this kid (or the active one). */
  async decryptionKey(kid: string | undefined): Promise<LiveKey | undefined> {
    const find = () => this.#keys.find((key) => key.use === "enc" && (kid === undefined ? !key.retired : key.kid === kid));
    // Another instance may have created keys after this one loaded them.
    if (!find() && Date.now() - this.#loadedAt > 1000) await this.reload();
    return find();
  }

  /** The published key set: every key whose tokens or payloads may still be in use. */
  jwks(): { keys: PublicJwk[] } {
    const now = Date.now();
    return { keys: this.#keys.filter((key) => key.publishedUntil === null || key.publishedUntil > now).map((key) => key.publicJwk) };
  }

  /** A new signing key signs from now on; the others stay published until their tokens expire. */
  async rotate(): Promise<{ kid: string; retired: Array<{ kid: string; publishedUntil: string }> }> {
    if (this.configured) throw conflict("Signing keys come from SDK_SIGNING_KEYS_FILE; rotate them there");
    const key = await newKey("sig");
    await this.#repo.insert({ kid: key.kid, use: "SIG", alg: key.alg, publicJwk: key.publicJwk, privateSealed: this.#sealer.seal(JSON.stringify(key.privateJwk)) });
    const now = new Date();
    const publishedUntil = new Date(now.getTime() + this.#tokenTtlMs + SKEW_MS);
    const retired = await this.#repo.retireSigningKeysExcept(key.kid, now, publishedUntil);
    await this.reload();
    return { kid: key.kid, retired: retired.map(({ kid }) => ({ kid, publishedUntil: publishedUntil.toISOString() })) };
  }
}
