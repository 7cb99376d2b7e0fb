import { randomUUID } from "node:crypto";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CompactEncrypt, compactDecrypt, createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, jwtVerify, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../src/domain/demo/seed.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { expectContract } from "../helpers/contract.ts";
import { createTenant, startTestService, type TestService } from "../helpers/service.ts";

const BASIC = `Basic ${Buffer.from(`${DEMO.clientId}:${DEMO.clientSecret}`).toString("base64")}`;
const VALID = { reference_id: "user-8842", pfm_config_id: DEMO.pfmConfigId, user_profile: { mobile_number: "9876543210", name: "Asha Verma", dob: "14-08-1990", pan: "ABCPV1234K" } };

function init(service: TestService, payload: unknown, headers: Record<string, string> = {}) {
  return service.app.inject({
    method: "POST",
    url: "/pfm/sdk/init",
    headers: { authorization: BASIC, "content-type": "application/json", ...headers },
    payload: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
}

async function jwks(service: TestService) {
  const response = await service.app.inject({ method: "GET", url: "/.well-known/jwks.json" });
  expect(response.headers["cache-control"]).toBe("public, max-age=300");
  expectContract("pfm", "getJwks", 200, response.json());
  return response.json() as { keys: Array<JWK & { kid: string; use: string }> };
}

/** Verifies a session token as an SDK backend would: against the published key set. */
async function verify(service: TestService, token: string, currentDate?: Date) {
  return jwtVerify(token, createLocalJWKSet(await jwks(service)), { issuer: "fiu-data-service", audience: "pfm-sdk", algorithms: ["ES256"], ...(currentDate ? { currentDate } : {}) });
}

describe("SDK Init (POST /pfm/sdk/init)", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ demo: true });
  });
  afterAll(() => service.close());

  it("returns a session token that verifies against the JWKS, with the documented claims", async () => {
    const response = await init(service, VALID);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expectContract("pfm", "sdkInit", 200, body);
    expect(body).toEqual({ status: "SUCCESS", session_token: expect.any(String) });
    const { payload, protectedHeader } = await verify(service, body.session_token);
    expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "JWT", kid: expect.stringMatching(/^sig-/) });
    expect(payload).toMatchObject({ iss: "fiu-data-service", aud: "pfm-sdk", sub: "user-8842", org: DEMO.organisationId, pfm_config_id: DEMO.pfmConfigId, jti: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(5);
  });

  it("records a session per token with the profile sealed, and gives a fresh token on every call", async () => {
    const first = (await init(service, { ...VALID, reference_id: "user-fresh" })).json().session_token;
    const second = (await init(service, { ...VALID, reference_id: "user-fresh" })).json().session_token;
    expect(second).not.toBe(first);
    const [a, b] = [await verify(service, first), await verify(service, second)];
    expect(a.payload.jti).not.toBe(b.payload.jti);
    const rows = await service.ctx.db.query<{ id: string; profileSealed: string; expiresAt: Date; referenceId: string }>(
      `SELECT id, "profileSealed", "expiresAt", "referenceId" FROM "SdkSession" WHERE "referenceId" = 'user-fresh' ORDER BY "issuedAt"`,
    );
    expect(rows.map((row) => row.id).sort()).toEqual([a.payload.jti, b.payload.jti].sort());
    for (const row of rows) {
      expect(row.profileSealed).not.toMatch(/ABCPV1234K|9876543210|Asha/);
      expect(new Date(row.expiresAt).getTime() / 1000).toBeGreaterThan(Date.now() / 1000 + 800);
    }
  });

  it("issues tokens that expire", async () => {
    const token = (await init(service, VALID)).json().session_token;
    await expect(verify(service, token, new Date(Date.now() + 901_000))).rejects.toMatchObject({ code: "ERR_JWT_EXPIRED" });
    await expect(verify(service, token, new Date(Date.now() + 899_000))).resolves.toBeDefined();
  });

  const failures: Array<[string, unknown, string]> = [
    ["reference_id missing", { ...VALID, reference_id: undefined }, "invalid_reference_id"],
    ["reference_id empty", { ...VALID, reference_id: "  " }, "invalid_reference_id"],
    ["reference_id null", { ...VALID, reference_id: null }, "invalid_reference_id"],
    ["pfm_config_id missing", { ...VALID, pfm_config_id: undefined }, "invalid_pfm_config_id"],
    ["pfm_config_id empty", { ...VALID, pfm_config_id: "" }, "invalid_pfm_config_id"],
    ["pfm_config_id null", { ...VALID, pfm_config_id: null }, "invalid_pfm_config_id"],
    ["pfm_config_id unknown", { ...VALID, pfm_config_id: "no-such-config" }, "invalid_pfm_config_id"],
    ["mobile_number missing", { ...VALID, user_profile: { ...VALID.user_profile, mobile_number: undefined } }, "invalid_mobile_number"],
    ["mobile_number empty", { ...VALID, user_profile: { ...VALID.user_profile, mobile_number: "" } }, "invalid_mobile_number"],
    ["mobile_number null", { ...VALID, user_profile: { ...VALID.user_profile, mobile_number: null } }, "invalid_mobile_number"],
    ["mobile_number malformed", { ...VALID, user_profile: { ...VALID.user_profile, mobile_number: "12345" } }, "invalid_mobile_number"],
    ["mobile_number not Indian", { ...VALID, user_profile: { ...VALID.user_profile, mobile_number: "5876543210" } }, "invalid_mobile_number"],
    ["pan missing", { ...VALID, user_profile: { ...VALID.user_profile, pan: undefined } }, "invalid_pan_number"],
    ["pan empty", { ...VALID, user_profile: { ...VALID.user_profile, pan: "" } }, "invalid_pan_number"],
    ["pan null", { ...VALID, user_profile: { ...VALID.user_profile, pan: null } }, "invalid_pan_number"],
    ["pan malformed", { ...VALID, user_profile: { ...VALID.user_profile, pan: "ABCP1234KK" } }, "invalid_pan_number"],
    ["user_profile missing (so pan and mobile are)", { reference_id: "u", pfm_config_id: DEMO.pfmConfigId }, "invalid_mobile_number"],
    ["dob not DD-MM-YYYY", { ...VALID, user_profile: { ...VALID.user_profile, dob: "1990-08-14" } }, "invalid_dob"],
    ["dob not a real date", { ...VALID, user_profile: { ...VALID.user_profile, dob: "30-02-1990" } }, "invalid_dob"],
    ["dob in the future", { ...VALID, user_profile: { ...VALID.user_profile, dob: "01-01-2999" } }, "invalid_dob"],
    ["a body that is not an object", [VALID], "invalid_request"],
    ["user_profile not an object", { ...VALID, user_profile: "9876543210" }, "invalid_request"],
    ["several problems: the first in the documented order wins", { pfm_config_id: "", user_profile: {} }, "invalid_reference_id"],
    ["an unknown config before a bad pan", { ...VALID, pfm_config_id: "nope", user_profile: { mobile_number: "9876543210" } }, "invalid_pfm_config_id"],
  ];

  it.each(failures)("answers %s with 400 and status_code", async (_case, payload, statusCode) => {
    const response = await init(service, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: "FAILED", message: expect.any(String), status_code: statusCode, is_retryable: false });
    expectContract("pfm", "sdkInit", 400, response.json());
  });

  it("accepts a mobile number with +91 and spaces, and a lower-case PAN", async () => {
    const response = await init(service, { ...VALID, user_profile: { mobile_number: "+91 98765-43210", pan: "abcpv1234k" } });
    expect(response.statusCode).toBe(200);
  });

  it("refuses another organisation's PFM configuration as unknown", async () => {
    const other = await createTenant(service);
    await service.admin("POST", `/admin/v1/organisations/${other.organisationId}/pfm-configs`, { pfm_config_id: "their-pfm" });
    const response = await init(service, { ...VALID, pfm_config_id: "their-pfm" });
    expect(response.json()).toMatchObject({ status_code: "invalid_pfm_config_id" });
    const theirs = await init(service, { ...VALID, pfm_config_id: "their-pfm" }, { authorization: `Basic ${Buffer.from(`${other.headers.client_id}:${other.headers.client_secret}`).toString("base64")}` });
    expect(theirs.statusCode).toBe(200);
  });

  it("answers malformed JSON and a wrong Content-Type with the SDK failure body", async () => {
    const malformed = await init(service, "{nope");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ status: "FAILED", message: "The request body is not valid JSON", status_code: "invalid_request", is_retryable: false });
    const wrongType = await init(service, "reference_id=1", { "content-type": "text/plain" });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toMatchObject({ status: "FAILED", status_code: "unsupported_media_type", is_retryable: false });
  });
});

describe("SDK payload encryption (JWE both ways)", () => {
  let service: TestService;
  let client: { privateKey: CryptoKey; publicJwk: JWK };

  beforeAll(async () => {
    service = await startTestService({ demo: true });
    const pair = await generateKeyPair("ECDH-ES+A256KW", { crv: "P-256", extractable: true });
    client = { privateKey: pair.privateKey as CryptoKey, publicJwk: { ...(await exportJWK(pair.publicKey)), kid: "integration-key-1" } };
    await service.admin("POST", `/admin/v1/organisations/${DEMO.organisationId}/pfm-configs`, { pfm_config_id: "secure-pfm" });
    const enabled = await service.admin("PATCH", `/admin/v1/organisations/${DEMO.organisationId}/pfm-configs/secure-pfm`, { encryption: { enabled: true, clientPublicJwk: client.publicJwk } });
    expect(enabled.json()).toMatchObject({ encryption: { enabled: true, clientPublicJwk: { kid: "integration-key-1" } } });
  });
  afterAll(() => service.close());

  async function encryptForService(body: unknown) {
    const encryptionKey = (await jwks(service)).keys.find((key) => key.use === "enc")!;
    expect(encryptionKey).toMatchObject({ kty: "EC", crv: "P-256", alg: "ECDH-ES+A256KW" });
    return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
      .setProtectedHeader({ alg: "ECDH-ES+A256KW", enc: "A256GCM", kid: encryptionKey.kid })
      .encrypt(await importJWK(encryptionKey, "ECDH-ES+A256KW"));
  }

  async function decryptAnswer(jwe: string) {
    expect(decodeProtectedHeader(jwe)).toMatchObject({ alg: "ECDH-ES+A256KW", enc: "A256GCM", kid: "integration-key-1" });
    return JSON.parse(new TextDecoder().decode((await compactDecrypt(jwe, client.privateKey)).plaintext));
  }

  it("decrypts the request and encrypts the answer to the integration's key", async () => {
    const response = await init(service, await encryptForService({ ...VALID, pfm_config_id: "secure-pfm" }), { "content-type": "application/jose" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/jose/);
    const answer = await decryptAnswer(response.body);
    expect(answer).toEqual({ status: "SUCCESS", session_token: expect.any(String) });
    expect((await verify(service, answer.session_token)).payload.pfm_config_id).toBe("secure-pfm");
  });

  it("encrypts failures once the configuration is known", async () => {
    const response = await init(service, await encryptForService({ ...VALID, pfm_config_id: "secure-pfm", user_profile: { mobile_number: "9876543210", pan: "bad" } }), { "content-type": "application/jose" });
    expect(response.statusCode).toBe(400);
    expect(await decryptAnswer(response.body)).toMatchObject({ status: "FAILED", status_code: "invalid_pan_number", is_retryable: false });
  });

  it("refuses a plain request to a configuration that requires encryption", async () => {
    const response = await init(service, { ...VALID, pfm_config_id: "secure-pfm" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: "FAILED", status_code: "invalid_request", message: expect.stringMatching(/requires encrypted payloads/) });
  });

  it("refuses a payload it cannot decrypt, in plain JSON", async () => {
    for (const body of ["not-a-jwe", "a.b.c.d.e"]) {
      const response = await init(service, body, { "content-type": "application/jose" });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: "FAILED", status_code: "invalid_request" });
    }
  });

  it("lets plain configurations stay plain", async () => {
    expect((await init(service, VALID)).headers["content-type"]).toMatch(/^application\/json/);
  });

  it("requires the integration's key to turn encryption on", async () => {
    const response = await service.admin("PATCH", `/admin/v1/organisations/${DEMO.organisationId}/pfm-configs/${DEMO.pfmConfigId}`, { encryption: { enabled: true, clientPublicJwk: null } });
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMsg).toBe("encryption.clientPublicJwk is required to enable encryption");
  });
});

describe("signing keys", () => {
  it("are generated and kept on first start, so tokens verify after a restart", async () => {
    const database = await createTestDatabase({ persistent: true });
    const first = await startTestService({ demo: true, database });
    const token = (await init(first, VALID)).json().session_token;
    const kids = (await jwks(first)).keys.map((key) => key.kid).sort();
    await first.close();
    const second = await startTestService({ database, reopen: true });
    try {
      expect((await jwks(second)).keys.map((key) => key.kid).sort()).toEqual(kids);
      await expect(verify(second, token)).resolves.toBeDefined();
      const stored = await second.ctx.db.query<{ privateSealed: string }>(`SELECT "privateSealed" FROM "ServiceKey"`);
      for (const key of stored) expect(key.privateSealed).not.toMatch(/"d"/);
    } finally {
      await second.close();
      await database.drop();
    }
  });

  it("rotate: a new key signs, the old one stays published until its tokens expire", async () => {
    const service = await startTestService({ demo: true, env: { SDK_TOKEN_TTL_SECONDS: "60" } });
    try {
      const before = await init(service, VALID);
      const oldKid = decodeProtectedHeader(before.json().session_token).kid;
      const rotated = await service.admin("POST", "/admin/v1/sdk-keys/rotate");
      expect(rotated.statusCode).toBe(201);
      expectContract("admin", "rotateSdkSigningKey", 201, rotated.json());
      const { kid, retired } = rotated.json();
      expect(kid).not.toBe(oldKid);
      expect(retired).toEqual([{ kid: oldKid, publishedUntil: expect.any(String) }]);
      expect(Date.parse(retired[0].publishedUntil) - Date.now()).toBeGreaterThan(100_000);
      const after = await init(service, VALID);
      expect(decodeProtectedHeader(after.json().session_token).kid).toBe(kid);
      await expect(verify(service, before.json().session_token)).resolves.toBeDefined();
      await expect(verify(service, after.json().session_token)).resolves.toBeDefined();
      // Once the old key's last token has expired, it leaves the key set.
      await service.ctx.db.query(`UPDATE "ServiceKey" SET "expiresAt" = now() - interval '1 second' WHERE kid = $1`, [oldKid]);
      await service.ctx.keys.reload();
      expect((await jwks(service)).keys.map((key) => key.kid)).not.toContain(oldKid);
    } finally {
      await service.close();
    }
  });

  it("come from configuration when SDK_SIGNING_KEYS_FILE is set: the last signs, all are published, rotation is refused", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fiu-keys-"));
    const keys = [];
    for (const kid of ["configured-old", "configured-new"]) {
      const { privateKey } = await generateKeyPair("ES256", { extractable: true });
      keys.push({ ...(await exportJWK(privateKey)), kid });
    }
    const file = path.join(dir, "signing.jwks.json");
    writeFileSync(file, JSON.stringify({ keys }));
    const service = await startTestService({ demo: true, env: { SDK_SIGNING_KEYS_FILE: file } });
    try {
      const token = (await init(service, VALID)).json().session_token;
      expect(decodeProtectedHeader(token).kid).toBe("configured-new");
      const published = (await jwks(service)).keys;
      expect(published.filter((key) => key.use === "sig").map((key) => key.kid)).toEqual(["configured-old", "configured-new"]);
      for (const key of published) expect(key).not.toHaveProperty("d");
      expect((await service.admin("POST", "/admin/v1/sdk-keys/rotate")).statusCode).toBe(409);
    } finally {
      await service.close();
    }
  });
});
