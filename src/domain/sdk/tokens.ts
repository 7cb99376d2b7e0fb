import { sign, type KeyObject } from "node:crypto";

const COORDINATE_BYTES = 32;

/**
 * An ECDSA signature as DER (SEQUENCE of INTEGER r, INTEGER s) in the JOSE form: r and s as
 * fixed 32-byte big-endian numbers (RFC 7518 §3.4).
 */
export function derToJoseSignature(der: Buffer): Buffer {
  const out = Buffer.alloc(2 * COORDINATE_BYTES);
  // SEQUENCE header: one length byte, or 0x81 and one more for lengths of 128 and over.
  let offset = der[1]! & 0x80 ? 2 + (der[1]! & 0x7f) : 2;
  for (const half of [0, COORDINATE_BYTES]) {
    const length = der[offset + 1]!;
    let start = offset + 2;
    let size = length;
    // DER adds a leading zero to keep a high-bit number positive.
    while (size > COORDINATE_BYTES) {
      start++;
      size--;
    }
    der.copy(out, half + COORDINATE_BYTES - size, start, start + size);
    offset += 2 + length;
  }
  return out;
}

const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * A compact ES256 JWS of `claims`. Signed by OpenSSL through node:crypto rather than by jose:
 * jose 6 signs through WebCrypto, whose ECDSA path costs about three times the CPU (measured in
 * the README), and SDK Init is one signature per request. The result is a standard JWT that
 * jose, and any JOSE library, verifies against the published JWKS.
 */
export function signEs256Jwt(header: { kid: string; typ: "JWT" }, claims: object, key: KeyObject): string {
  const signingInput = `${segment({ alg: "ES256", ...header })}.${segment(claims)}`;
  const signature = derToJoseSignature(sign("sha256", Buffer.from(signingInput), key));
  return `${signingInput}.${signature.toString("base64url")}`;
}
