import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from "node:crypto";

/**
 * AES-256-GCM for data at rest (service private keys, users' PAN and mobile), with a key derived
 * from the deployment's KEY_ENCRYPTION_SECRET for one purpose. Sealed text is
 * base64url(iv | tag | ciphertext).
 */
export class Sealer {
  readonly #key: KeyObject;

  constructor(secret: string, purpose: string) {
    this.#key = createSecretKey(Buffer.from(hkdfSync("sha256", secret, "fiu-data-service", purpose, 32)));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }
}
