import { randomUUID } from "node:crypto";
import { CompactEncrypt, compactDecrypt, decodeProtectedHeader, importJWK, type JWK } from "jose";
import type { SdkSessionRepository } from "../../db/repositories/sdk-sessions.ts";
import type { PfmConfigRecord } from "../../db/repositories/tenants.ts";
import type { Tenant, TenantService } from "../tenants.ts";
import { CONTENT_ENC, KEY_WRAPPING_ALG, type KeyService } from "./keys.ts";
import type { TokenSigner } from "./token-signer.ts";
import type { Sealer } from "./sealing.ts";

export type SdkStatusCode =
  | "invalid_reference_id"
  | "invalid_pfm_config_id"
  | "invalid_mobile_number"
  | "invalid_pan_number"
  | "invalid_dob"
  | "invalid_request";

export interface SdkFailureBody {
  status: "FAILED";
  message: string;
  status_code: SdkStatusCode;
  is_retryable: false;
}

export interface SdkSuccessBody {
  status: "SUCCESS";
  session_token: string;
}

/** What to answer: the body, and the key to encrypt it to when the integration asks for that. */
export interface SdkOutcome {
  status: 200 | 400;
  body: SdkSuccessBody | SdkFailureBody;
  encryptTo: JWK | null;
}

export interface SdkSettings {
  tokenTtlSeconds: number;
  issuer: string;
}

const PAN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
const MOBILE = /^(?:\+?91|0)?([6-9]\d{9})$/;
const DOB = /^(\d{2})-(\d{2})-(\d{4})$/;
export const AUDIENCE = "pfm-sdk";
const MAX_CACHED_CONFIGS = 10_000;

const failure = (status_code: SdkStatusCode, message: string): SdkFailureBody => ({ status: "FAILED", message, status_code, is_retryable: false });

function missing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/** A real calendar date in DD-MM-YYYY, not in the future. */
function validDob(text: string, today: Date): boolean {
  const match = DOB.exec(text);
  if (!match) return false;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && year >= 1900 && date <= today;
}

export interface Identifiers {
  referenceId: string;
  pfmConfigId: string;
}

export interface UserProfile {
  mobile: string;
  pan: string;
  name: string | undefined;
  dob: string | undefined;
}

const isFailure = (value: object): value is SdkFailureBody => "status_code" in value;

/** The first two checks of the documented order: reference_id, then pfm_config_id's presence. */
export function checkIdentifiers(body: unknown): Identifiers | SdkFailureBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return failure("invalid_request", "The body must be a JSON object");
  const input = body as Record<string, unknown>;
  if (missing(input.reference_id)) return failure("invalid_reference_id", "reference_id is required");
  if (typeof input.reference_id !== "string" || input.reference_id.length > 128) return failure("invalid_reference_id", "reference_id must be a string of at most 128 characters");
  if (missing(input.pfm_config_id)) return failure("invalid_pfm_config_id", "pfm_config_id is required");
  if (typeof input.pfm_config_id !== "string" || input.pfm_config_id.length > 128) return failure("invalid_pfm_config_id", "pfm_config_id must be a string of at most 128 characters");
  return { referenceId: input.reference_id.trim(), pfmConfigId: input.pfm_config_id.trim() };
}

/** The profile's checks, after the configuration is known: mobile_number, pan, then dob. */
export function checkProfile(body: Record<string, unknown>, today = new Date()): UserProfile | SdkFailureBody {
  const profile = body.user_profile;
  if (profile !== undefined && profile !== null && (typeof profile !== "object" || Array.isArray(profile))) return failure("invalid_request", "user_profile must be an object");
  const user = (profile ?? {}) as Record<string, unknown>;
  if (missing(user.mobile_number)) return failure("invalid_mobile_number", "user_profile.mobile_number is required");
  const mobile = typeof user.mobile_number === "string" ? MOBILE.exec(user.mobile_number.replace(/[\s-]/g, "")) : null;
  if (!mobile) return failure("invalid_mobile_number", "user_profile.mobile_number must be a 10-digit Indian mobile number");
  if (missing(user.pan)) return failure("invalid_pan_number", "user_profile.pan is required");
  const pan = typeof user.pan === "string" ? user.pan.trim().toUpperCase() : "";
  if (!PAN.test(pan)) return failure("invalid_pan_number", "user_profile.pan must be a PAN: 5 letters, 4 digits, 1 letter");
  if (user.dob !== undefined && user.dob !== null && (typeof user.dob !== "string" || !validDob(user.dob, today))) {
    return failure("invalid_dob", "user_profile.dob must be a real date in DD-MM-YYYY");
  }
  if (user.name !== undefined && user.name !== null && typeof user.name !== "string") return failure("invalid_request", "user_profile.name must be a string");
  return { mobile: mobile[1] as string, pan, name: typeof user.name === "string" ? user.name : undefined, dob: typeof user.dob === "string" ? user.dob : undefined };
}

export class PayloadDecryptionError extends Error {}

/**
 * SDK Init: verifies the request, issues an ES256 session token and records the session (the
 * user's profile sealed; PAN and mobile never stored in clear).
 */
export class SdkSessionService {
  readonly #keys: KeyService;
  readonly #signer: TokenSigner;
  readonly #tenants: TenantService;
  readonly #sessions: SdkSessionRepository;
  readonly #sealer: Sealer;
  readonly #settings: SdkSettings;
  readonly #configs = new Map<string, { record: PfmConfigRecord | null; expiresAt: number }>();

  constructor(keys: KeyService, signer: TokenSigner, tenants: TenantService, sessions: SdkSessionRepository, sealer: Sealer, settings: SdkSettings) {
    this.#keys = keys;
    this.#signer = signer;
    this.#tenants = tenants;
    this.#sessions = sessions;
    this.#sealer = sealer;
    this.#settings = settings;
  }

  /** PFM configurations change rarely: remembered for 30 s, and forgotten here when changed. */
  async #config(organisationId: string, pfmConfigId: string): Promise<PfmConfigRecord | null> {
    const key = `${organisationId}\u0000${pfmConfigId}`;
    const cached = this.#configs.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.record;
    const record = await this.#tenants.findPfmConfig(organisationId, pfmConfigId);
    // Callers choose the ids, unknown ones included: the memory is bounded.
    if (this.#configs.size >= MAX_CACHED_CONFIGS) this.#configs.clear();
    this.#configs.set(key, { record, expiresAt: Date.now() + 30_000 });
    return record;
  }

  close(): Promise<void> {
    return this.#signer.close();
  }

  forgetConfig(organisationId: string, pfmConfigId: string): void {
    this.#configs.delete(`${organisationId}\u0000${pfmConfigId}`);
  }

  /** The JSON inside a compact JWE sent to the service's encryption key. */
  async decrypt(jwe: string): Promise<unknown> {
    try {
      const { kid } = decodeProtectedHeader(jwe);
      const key = await this.#keys.decryptionKey(kid);
      if (!key) throw new PayloadDecryptionError(`unknown key ${kid ?? "(no kid)"}; encrypt to the use=enc key of /.well-known/jwks.json`);
      const { plaintext } = await compactDecrypt(jwe, key.privateKey, { keyManagementAlgorithms: [KEY_WRAPPING_ALG], contentEncryptionAlgorithms: [CONTENT_ENC] });
      return JSON.parse(new TextDecoder().decode(plaintext));
    } catch (error) {
      if (error instanceof PayloadDecryptionError) throw error;
      throw new PayloadDecryptionError(`the payload could not be decrypted (${(error as Error).message})`);
    }
  }

  /** A compact JWE of `body` for the integration's public key. */
  async encrypt(body: unknown, to: JWK): Promise<string> {
    const key = await importJWK(to, KEY_WRAPPING_ALG);
    return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
      .setProtectedHeader({ alg: KEY_WRAPPING_ALG, enc: CONTENT_ENC, kid: to.kid, cty: "application/json" })
      .encrypt(key);
  }

  async initialise(tenant: Tenant, payload: unknown, encrypted: boolean): Promise<SdkOutcome> {
    const ids = checkIdentifiers(payload);
    if (isFailure(ids)) return { status: 400, body: ids, encryptTo: null };
    const config = await this.#config(tenant.organisationId, ids.pfmConfigId);
    if (!config) return { status: 400, body: failure("invalid_pfm_config_id", "pfm_config_id is not a PFM configuration of this organisation"), encryptTo: null };
    if (config.encryptionEnabled && !encrypted) {
      return { status: 400, body: failure("invalid_request", "This PFM configuration requires encrypted payloads (Content-Type: application/jose)"), encryptTo: null };
    }
    const encryptTo = config.encryptionEnabled ? (config.clientPublicJwk as JWK) : null;
    const profile = checkProfile(payload as Record<string, unknown>);
    if (isFailure(profile)) return { status: 400, body: profile, encryptTo };

    const signing = this.#keys.signingKey();
    const jti = randomUUID();
    const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    const expiresAt = new Date(issuedAt.getTime() + this.#settings.tokenTtlSeconds * 1000);
    // The record and the signature are independent: both at once. A token is only answered
    // once its session is committed; a session whose token failed is never answered, so unused.
    const [token] = await Promise.all([
      this.#signer.sign(
        { kid: signing.kid, typ: "JWT" },
        { iss: this.#settings.issuer, aud: AUDIENCE, sub: ids.referenceId, jti, org: tenant.organisationId, pfm_config_id: ids.pfmConfigId, iat: issuedAt.getTime() / 1000, exp: expiresAt.getTime() / 1000 },
        signing.privateKey,
      ),
      this.#sessions.insert({
        id: jti,
        organisationId: tenant.organisationId,
        appId: tenant.appId,
        pfmConfigId: config.id,
        referenceId: ids.referenceId,
        signingKeyId: signing.kid,
        profileSealed: this.#sealer.seal(JSON.stringify(profile)),
        issuedAt,
        expiresAt,
      }),
    ]);
    return { status: 200, body: { status: "SUCCESS", session_token: token }, encryptTo };
  }
}
