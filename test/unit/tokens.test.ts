import { generateKeyPairSync, verify } from "node:crypto";
import { decodeProtectedHeader, exportJWK, importJWK, jwtVerify } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { TokenSigner } from "../../src/domain/sdk/token-signer.ts";
import { derToJoseSignature } from "../../src/domain/sdk/tokens.ts";

const bytes = (length: number, fill: number) => Buffer.alloc(length, fill);
const integer = (value: Buffer) => Buffer.concat([Buffer.from([0x02, value.length]), value]);
const sequence = (...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
};

describe("DER to JOSE signature", () => {
  it("keeps two full 32-byte integers as they are", () => {
    const der = sequence(integer(bytes(32, 0x11)), integer(bytes(32, 0x22)));
    expect(derToJoseSignature(der)).toEqual(Buffer.concat([bytes(32, 0x11), bytes(32, 0x22)]));
  });

  it("drops the zero DER puts before a number whose high bit is set", () => {
    const r = Buffer.concat([Buffer.from([0x00]), bytes(32, 0x80)]);
    const der = sequence(integer(r), integer(bytes(32, 0x7f)));
    expect(derToJoseSignature(der)).toEqual(Buffer.concat([bytes(32, 0x80), bytes(32, 0x7f)]));
  });

  it("left-pads a number DER wrote in fewer than 32 bytes", () => {
    const der = sequence(integer(bytes(31, 0x33)), integer(Buffer.from([0x05])));
    const expected = Buffer.concat([Buffer.from([0x00]), bytes(31, 0x33), bytes(31, 0x00), Buffer.from([0x05])]);
    expect(derToJoseSignature(der)).toEqual(expected);
  });
});

describe("TokenSigner", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const claims = { sub: "user-1", org: "org-1", pfm_config_id: "pfm-1", jti: "j-1", iat: 1_700_000_000, exp: 4_000_000_000 };
  const signer = new TokenSigner();
  afterAll(() => signer.close());

  it("makes a JWT that jose verifies with the public JWK", async () => {
    const token = await signer.sign({ kid: "sig-1", typ: "JWT" }, claims, privateKey);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", kid: "sig-1", typ: "JWT" });
    const key = await importJWK({ ...(await exportJWK(publicKey)), alg: "ES256" }, "ES256");
    const { payload } = await jwtVerify(token, key, { algorithms: ["ES256"] });
    expect(payload).toEqual(claims);
  });

  it("signs a burst of 300 at once, each token with its own claims and a valid 64-byte r||s signature", async () => {
    const tokens = await Promise.all(Array.from({ length: 300 }, (_, index) => signer.sign({ kid: "sig-1", typ: "JWT" }, { ...claims, sub: `user-${index}` }, privateKey)));
    tokens.forEach((token, index) => {
      const [header, payload, signature] = token.split(".") as [string, string, string];
      expect(JSON.parse(Buffer.from(payload, "base64url").toString()).sub).toBe(`user-${index}`);
      const raw = Buffer.from(signature, "base64url");
      expect(raw).toHaveLength(64);
      expect(verify("sha256", Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, raw)).toBe(true);
    });
    expect(new Set(tokens).size).toBe(300);
  });

  it("signs with each token's own key when keys rotate between requests", async () => {
    const next = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const [old, rotated] = await Promise.all([signer.sign({ kid: "sig-1", typ: "JWT" }, claims, privateKey), signer.sign({ kid: "sig-2", typ: "JWT" }, claims, next.privateKey)]);
    await expect(jwtVerify(old!, publicKey)).resolves.toBeTruthy();
    await expect(jwtVerify(rotated!, next.publicKey)).resolves.toBeTruthy();
    await expect(jwtVerify(rotated!, publicKey)).rejects.toThrow();
  });

  it("fails the tokens a dying thread held, then signs on a new thread", async () => {
    const crashing = new TokenSigner(new URL("../fixtures/crashing-signing-worker.ts", import.meta.url));
    try {
      await expect(crashing.sign({ kid: "sig-1", typ: "JWT" }, claims, privateKey)).resolves.toBeTruthy();
      const lost = [crashing.sign({ kid: "sig-1", typ: "JWT" }, claims, privateKey), crashing.sign({ kid: "crash", typ: "JWT" }, claims, privateKey)];
      for (const token of lost) await expect(token).rejects.toThrow("the signing thread exited with code 3");
      // The new thread must be sent the key again.
      const token = await crashing.sign({ kid: "sig-1", typ: "JWT" }, claims, privateKey);
      await expect(jwtVerify(token, publicKey)).resolves.toBeTruthy();
    } finally {
      await crashing.close();
    }
  });

  it("refuses to sign once closed", async () => {
    const closing = new TokenSigner();
    await closing.close();
    await expect(closing.sign({ kid: "sig-1", typ: "JWT" }, claims, privateKey)).rejects.toThrow("closed");
  });
});
