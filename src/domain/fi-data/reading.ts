import { createHash } from "node:crypto";
import type { ConsentRepository } from "../../db/repositories/consents.ts";
import type { AccountHead, FiDataReader, StoredTransaction } from "../../db/repositories/fi-data.ts";
import type { AccountHeader } from "../../serialization/xml.ts";
import { invalidRequest, ServiceError } from "../errors.ts";
import type { AccountSummary, HolderProfile, RebitAccountType } from "./model.ts";

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
  version: string;
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

  constructor(reader: FiDataReader, consents: ConsentRepository, pageSize: number) {
    this.#reader = reader;
    this.#consents = consents;
    this.#pageSize = pageSize;
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

  /** One page (or all) of the account's transactions, newest first. */
  async page(read: AccountRead, request: PageRequest): Promise<AccountPage> {
    if (request.cursor !== undefined && !(request.limit && request.offset)) {
      throw invalidRequest("cursor is used together with limit=true&offset=true");
    }
    const limit = request.limit ? this.#pageSize : undefined;
    // A refresh may land between reading the head and the rows; a second one may even remove the
    // snapshot the head named. Reading again then sees the newer snapshot.
    for (let attempt = 0; attempt < 3; attempt++) {
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
          if (!pinned) throw invalidRequest("cursor has expired (the account's data was refreshed twice since); start again without a cursor");
          if (pinned.linkedAccountId !== head.linkedAccountId) throw invalidRequest("cursor is not valid; use the nextCursor of the previous page");
          snapshotId = pinned.id;
          header = this.#header(read, head, pinned);
        }
      }
      const rows = await this.#reader.transactions(snapshotId, { after, ...(limit ? { limit: limit + 1 } : {}) });
      if (rows === null) {
        if (request.cursor !== undefined) throw invalidRequest("cursor has expired (the account's data was refreshed twice since); start again without a cursor");
        continue;
      }
      const more = limit !== undefined && rows.length > limit;
      const transactions = more ? rows.slice(0, limit) : rows;
      const last = transactions.at(-1);
      return {
        header,
        transactions,
        nextCursor: more && last ? encodeCursor({ snapshotId, position: last.position }) : undefined,
        version: version(snapshotId, after, limit ?? "all"),
      };
    }
    throw new ServiceError(503, "ServiceUnavailable", "The account's data is being refreshed; retry shortly");
  }

  /** Everything needed for the account's ReBIT Account document (the XML operation's second form). */
  async rebitAccount(read: AccountRead): Promise<RebitAccountData> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const head = await this.#head(read);
      const snapshot = await this.#reader.snapshot(head.snapshotId);
      const rows = snapshot ? await this.#reader.transactions(head.snapshotId) : null;
      if (!snapshot || rows === null) continue;
      return {
        header: this.#header(read, head, snapshot),
        rebitType: REBIT_TYPES[snapshot.fiType] ?? "deposit",
        schemaVersion: snapshot.schemaVersion,
        profile: snapshot.profile as HolderProfile,
        summary: snapshot.summary as AccountSummary,
        transactionsStart: snapshot.transactionsStart,
        transactionsEnd: snapshot.transactionsEnd,
        transactions: rows.reverse(),
        version: version(snapshot.id, "rebit"),
      };
    }
    throw new ServiceError(503, "ServiceUnavailable", "The account's data is being refreshed; retry shortly");
  }
}
