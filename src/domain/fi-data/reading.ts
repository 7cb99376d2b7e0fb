import { createHash } from "node:crypto";
import type { ConsentRepository } from "../../db/repositories/consents.ts";
import type { AccountHead, FiDataReader, StoredTransaction } from "../../db/repositories/fi-data.ts";
import type { AccountHeader } from "../../serialization/xml.ts";
import { invalidRequest, ServiceError } from "../errors.ts";
import type { AccountSummary, HolderProfile, RebitAccountType } from "./model.ts";
import type { PageCache, RenderedParts } from "./page-cache.ts";

export interface AccountRead {
  organisationId: string;
  consentID: string;
  linkReferenceNumber: string;
}

export interface PageRequest {
  /** At most the platform page size. */
  limit: boolean;
  /** Continue where `cursor` says (with limit). */
  offset: boolean;
  cursor?: string | undefined;
}

/** A rendered answer and its version; `parts` is null when the caller holds that version already. */
export interface Rendered {
  version: string;
  parts: RenderedParts | null;
}

export interface PageLocation {
  header: AccountHeader;
  snapshotId: string;
  /** The page starts after this answer position (-1: from the newest). */
  after: number;
  limit: number | undefined;
  /** Whether a cursor pins the walk to its snapshot. */
  pinned: boolean;
  version: string;
}

export interface AccountPage {
  header: AccountHeader;
  /** Newest first. */
  transactions: StoredTransaction[];
  nextCursor: string | undefined;
  /** Identifies the data of this answer (snapshot and page) for ETags and caches. */
  version: string;
}

export interface RebitAccountData {
  header: AccountHeader;
  rebitType: RebitAccountType;
  schemaVersion: string;
  profile: HolderProfile;
  summary: AccountSummary;
  transactionsStart: string | null;
  transactionsEnd: string | null;
  /** Oldest first. */
  transactions: StoredTransaction[];
}

const REBIT_TYPES: Record<string, RebitAccountType> = {
  DEPOSIT: "deposit",
  TERM_DEPOSIT: "term_deposit",
  "TERM-DEPOSIT": "term_deposit",
  RECURRING_DEPOSIT: "recurring_deposit",
};

interface Cursor {
  snapshotId: string;
  position: number;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify({ s: cursor.snapshotId, p: cursor.position })).toString("base64url");
}

function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as { s?: unknown; p?: unknown };
    if (typeof value.s === "string" && /^[0-9a-f-]{36}$/.test(value.s) && Number.isInteger(value.p) && (value.p as number) >= 0) {
      return { snapshotId: value.s, position: value.p as number };
    }
  } catch {
    // reported below
  }
  throw invalidRequest("cursor is not valid; use the nextCursor of the previous page");
}

const cursorExpired = () => invalidRequest("cursor has expired (the account's data was refreshed twice since); start again without a cursor");

function version(...parts: Array<string | number>): string {
  return createHash("sha256").update(parts.join(":")).digest("base64url").slice(0, 22);
}

export const errors = {
  unknownConsent: () => new ServiceError(400, "InvalidConsentId", "Consent ID does not exist"),
  consentNotActive: () => new ServiceError(400, "ConsentNotActive", "Consent is not in active state"),
  unknownLink: () => new ServiceError(400, "InvalidLinkReference", "Link Reference Number does not exist"),
  linkOfOtherConsent: () => new ServiceError(400, "InvalidLinkReference", "Link Reference Number not associated with this consent"),
  dataNotAvailable: () => new ServiceError(400, "DataNotAvailable", "Financial data not available"),
};

/**
 * Reads the data of one linked account for Get FI Data (JSON and XML). The checks run in the
 * order of the spec's table: consent (of this organisation), its state, the link, the data.
 */
export class FiDataReadService {
  readonly #reader: FiDataReader;
  readonly #consents: ConsentRepository;
  readonly #pageSize: number;
  readonly #cache: PageCache;

  constructor(reader: FiDataReader, consents: ConsentRepository, pageSize: number, cache: PageCache) {
    this.#reader = reader;
    this.#consents = consents;
    this.#pageSize = pageSize;
    this.#cache = cache;
  }

  async #head(read: AccountRead): Promise<AccountHead & { linkedAccountId: string; snapshotId: string }> {
    const head = await this.#reader.head(read.organisationId, read.consentID, read.linkReferenceNumber);
    if (!head) throw errors.unknownConsent();
    if (head.consentState !== "ACTIVE") throw errors.consentNotActive();
    if (!head.linkedAccountId) {
      const elsewhere = await this.#consents.linkExistsInOrganisation(read.linkReferenceNumber, read.organisationId);
      throw elsewhere ? errors.linkOfOtherConsent() : errors.unknownLink();
    }
    if (!head.snapshotId) throw errors.dataNotAvailable();
    return head as AccountHead & { linkedAccountId: string; snapshotId: string };
  }

  #header(read: AccountRead, head: AccountHead, snapshot: { fiType: string; maskedAccountNumber: string; balance: string }): AccountHeader {
    return {
      linkReferenceNumber: read.linkReferenceNumber,
      maskedAccountNumber: snapshot.maskedAccountNumber,
      balance: snapshot.balance,
      fipName: head.fipName ?? "",
      fipId: head.fipId ?? "",
      fiType: snapshot.fiType,
    };
  }

  /**
   * Where the requested page is: the snapshot (the current one, or the one a cursor walks), the
   * range, and the version that identifies its content. One database read.
   */
  async locate(read: AccountRead, request: PageRequest): Promise<PageLocation> {
    if (request.cursor !== undefined && !(request.limit && request.offset)) {
      throw invalidRequest("cursor is used together with limit=true&offset=true");
    }
    const limit = request.limit ? this.#pageSize : undefined;
    const head = await this.#head(read);
    let snapshotId = head.snapshotId;
    let after = -1;
    let header = this.#header(read, head, head as { fiType: string; maskedAccountNumber: string; balance: string });
    if (request.cursor !== undefined) {
      const cursor = decodeCursor(request.cursor);
      after = cursor.position;
      if (cursor.snapshotId !== snapshotId) {
        // The walk stays on the snapshot it started on, while that snapshot is kept.
        const pinned = await this.#reader.snapshot(cursor.snapshotId);
        if (!pinned) throw cursorExpired();
        if (pinned.linkedAccountId !== head.linkedAccountId) throw invalidRequest("cursor is not valid; use the nextCursor of the previous page");
        snapshotId = pinned.id;
        header = this.#header(read, head, pinned);
      }
    }
    return {
      header,
      snapshotId,
      after,
      limit,
      pinned: request.cursor !== undefined,
      version: version(snapshotId, after, limit ?? "all", header.fipId, header.fipName),
    };
  }

  /** The transactions of a located page; null when its snapshot was removed since it was located. */
  async load(location: PageLocation): Promise<AccountPage | null> {
    const { limit } = location;
    const rows = await this.#reader.transactions(location.snapshotId, { after: location.after, ...(limit ? { limit: limit + 1 } : {}) });
    if (rows === null) {
      if (location.pinned) throw cursorExpired();
      return null;
    }
    const more = limit !== undefined && rows.length > limit;
    const transactions = more ? rows.slice(0, limit) : rows;
    const last = transactions.at(-1);
    return {
      header: location.header,
      transactions,
      nextCursor: more && last ? encodeCursor({ snapshotId: location.snapshotId, position: last.position }) : undefined,
      version: location.version,
    };
  }

  /**
   * The page in one representation, serialised by `render` once per data version and then served
   * from the cache. `unchanged(version)` is asked first: when the caller holds that version
   * already, nothing is loaded or rendered and `text` is null.
   */
  async renderPage(
    read: AccountRead,
    request: PageRequest,
    representation: string,
    render: (page: AccountPage) => RenderedParts,
    unchanged: (version: string) => boolean,
  ): Promise<Rendered> {
    // A refresh may land between locating and loading; a second one may even remove the
    // snapshot located. Locating again then finds the newer snapshot.
    for (let attempt = 0; attempt < 3; attempt++) {
      const location = await this.locate(read, request);
      const key = `${location.version}-${representation}`;
      if (unchanged(key)) return { version: key, parts: null };
      const cached = this.#cache.get(key);
      if (cached !== undefined) return { version: key, parts: cached };
      const page = await this.load(location);
      if (!page) continue;
      const parts = render(page);
      this.#cache.set(key, parts);
      return { version: key, parts };
    }
    throw new ServiceError(503, "ServiceUnavailable", "The account's data is being refreshed; retry shortly");
  }

  /**
   * The account's ReBIT Account document (the XML operation's second form), rendered once per
   * snapshot like pages are.
   */
  async renderRebitAccount(read: AccountRead, render: (account: RebitAccountData) => RenderedParts, unchanged: (version: string) => boolean): Promise<Rendered> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const head = await this.#head(read);
      const key = `${version(head.snapshotId, "rebit", head.fipId ?? "", head.fipName ?? "")}-rebit`;
      if (unchanged(key)) return { version: key, parts: null };
      const cached = this.#cache.get(key);
      if (cached !== undefined) return { version: key, parts: cached };
      const snapshot = await this.#reader.snapshot(head.snapshotId);
      const rows = snapshot ? await this.#reader.transactions(head.snapshotId) : null;
      if (!snapshot || rows === null) continue;
      const parts = render({
        header: this.#header(read, head, snapshot),
        rebitType: REBIT_TYPES[snapshot.fiType] ?? "deposit",
        schemaVersion: snapshot.schemaVersion,
        profile: snapshot.profile as HolderProfile,
        summary: snapshot.summary as AccountSummary,
        transactionsStart: snapshot.transactionsStart,
        transactionsEnd: snapshot.transactionsEnd,
        transactions: rows.reverse(),
      });
      this.#cache.set(key, parts);
      return { version: key, parts };
    }
    throw new ServiceError(503, "ServiceUnavailable", "The account's data is being refreshed; retry shortly");
  }
}
