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

/** The part of a compact ES256 JWS that is signed: base64url(header).base64url(claims). */
export function es256SigningInput(header: { kid: string; typ: "JWT" }, claims: object): string {
  return `${segment({ alg: "ES256", ...header })}.${segment(claims)}`;
}

/** The base64url JOSE signature of a signing input, by OpenSSL through node:crypto. */
export function signEs256(signingInput: string, key: KeyObject): string {
  return derToJoseSignature(sign("sha256", Buffer.from(signingInput), key)).toString("base64url");
}
