import type { PrismaClient } from "../../../generated/prisma/client.ts";

export interface StoredKey {
  kid: string;
  use: "SIG" | "ENC";
  alg: string;
  publicJwk: unknown;
  privateSealed: string;
  createdAt: Date;
  retiredAt: Date | null;
  expiresAt: Date | null;
}

export class KeyRepository {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  /** Keys that are still published: not retired, or retired but not yet past their last token. */
  live(now: Date): Promise<StoredKey[]> {
    return this.#prisma.serviceKey.findMany({
      where: { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      orderBy: [{ createdAt: "asc" }, { kid: "asc" }],
    }) as Promise<StoredKey[]>;
  }

  async insert(key: Omit<StoredKey, "createdAt" | "retiredAt" | "expiresAt">): Promise<void> {
    await this.#prisma.serviceKey.create({ data: { ...key, publicJwk: key.publicJwk as object } });
  }

  /** Retires every other signing key, keeping it published until `publishedUntil`. */
  async retireSigningKeysExcept(kid: string, retiredAt: Date, publishedUntil: Date): Promise<Array<{ kid: string }>> {
    const keys = await this.#prisma.serviceKey.findMany({ where: { use: "SIG", retiredAt: null, kid: { not: kid } }, select: { kid: true } });
    await this.#prisma.serviceKey.updateMany({ where: { use: "SIG", retiredAt: null, kid: { not: kid } }, data: { retiredAt, expiresAt: publishedUntil } });
    return keys;
  }
}
