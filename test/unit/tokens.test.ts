import { generateKeyPairSync, verify } from "node:crypto";
import { decodeProtectedHeader, exportJWK, importJWK, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { derToJoseSignature, signEs256Jwt } from "../../src/domain/sdk/tokens.ts";

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

describe("signEs256Jwt", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const claims = { sub: "user-1", org: "org-1", pfm_config_id: "pfm-1", jti: "j-1", iat: 1_700_000_000, exp: 4_000_000_000 };

  it("makes a JWT that jose verifies with the public JWK", async () => {
    const token = signEs256Jwt({ kid: "sig-1", typ: "JWT" }, claims, privateKey);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", kid: "sig-1", typ: "JWT" });
    const key = await importJWK({ ...(await exportJWK(publicKey)), alg: "ES256" }, "ES256");
    const { payload } = await jwtVerify(token, key, { algorithms: ["ES256"] });
    expect(payload).toEqual(claims);
  });

  it("signs with a 64-byte r||s signature, fresh each time", () => {
    const signatures = new Set<string>();
    for (let attempt = 0; attempt < 200; attempt++) {
      const token = signEs256Jwt({ kid: "sig-1", typ: "JWT" }, claims, privateKey);
      const [header, payload, signature] = token.split(".") as [string, string, string];
      const raw = Buffer.from(signature, "base64url");
      expect(raw).toHaveLength(64);
      expect(verify("sha256", Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, raw)).toBe(true);
      signatures.add(signature);
    }
    expect(signatures.size).toBe(200);
  });
});
