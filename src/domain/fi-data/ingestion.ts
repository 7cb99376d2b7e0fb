import { randomUUID } from "node:crypto";
import type { ConsentRepository, LinkedAccountRecord } from "../../db/repositories/consents.ts";
import type { SqlSession } from "../../db/database.ts";
import { JourneyExistsError, type FiDataRepository } from "../../db/repositories/fi-data.ts";
import { accountFromRebit } from "../../serialization/rebit.ts";
import { FieldError } from "../../serialization/values.ts";
import { conflict, invalidRequest, notFound, ServiceError } from "../errors.ts";
import type { AccountData } from "./model.ts";

export interface IncomingAccount {
  linkReferenceNumber: string;
  fipId: string;
  fipName: string;
  fiType?: string | undefined;
  format: "xml" | "json";
  data: unknown;
}

export interface IngestRequest {
  consentID: string;
  journeyID?: string | undefined;
  configId?: string | undefined;
  accounts: IncomingAccount[];
  source?: string;
  /** More work that must commit with the journey (a bulk row's state, for example). */
  alsoInTransaction?: (session: SqlSession) => Promise<void>;
}

export interface IngestResult {
  journeyID: string;
  organisationId: string;
  accounts: Array<{ linkReferenceNumber: string; transactions: number; fipId: string; fiType: string }>;
}

/** Parses one account document; XML support is registered by the XML codec. */
export type AccountParser = (account: IncomingAccount) => AccountData;

/** Work that commits together with a stored journey: its DATA_READY events, its analytics job. */
export type JourneyHook = (session: SqlSession, result: IngestResult, consentID: string) => Promise<void>;

function parseJsonForm(account: IncomingAccount): AccountData {
  let data = account.data;
  if (typeof data === "string") {
    try {
      data = JSON.parse(data);
    } catch {
      throw new FieldError("data", "is not valid JSON");
    }
  }
  return accountFromRebit(data, { fiType: account.fiType });
}

/**
 * Takes ReBIT account data for a consent journey. Everything is checked before anything is
 * stored; then the journey and every account's new snapshot are committed together.
 */
export class IngestionService {
  readonly #consents: ConsentRepository;
  readonly #fiData: FiDataRepository;
  readonly #parsers: Record<IncomingAccount["format"], AccountParser>;
  readonly #hooks: JourneyHook[] = [];

  constructor(consents: ConsentRepository, fiData: FiDataRepository, xmlParser?: AccountParser) {
    this.#consents = consents;
    this.#fiData = fiData;
    this.#parsers = {
      json: parseJsonForm,
      xml: xmlParser ?? (() => {
        throw new FieldError("format", "xml is not supported by this deployment");
      }),
    };
  }

  /** Runs `hook` in the transaction of every stored journey, so that what it records commits with the data. */
  onJourneyStored(hook: JourneyHook): void {
    this.#hooks.push(hook);
  }

  async ingest(request: IngestRequest): Promise<IngestResult> {
    const consent = await this.#consents.findWithLinks(request.consentID);
    if (!consent) throw notFound(`Consent ${request.consentID} does not exist`);
    if (consent.state !== "ACTIVE") {
      throw new ServiceError(400, "ConsentNotActive", `Consent is not in active state (${consent.state}); FI data can only be received under an ACTIVE consent`);
    }
    const seen = new Set<string>();
    const writes = request.accounts.map((incoming, index) => {
      const where = `accounts[${index}]`;
      if (seen.has(incoming.linkReferenceNumber)) {
        throw invalidRequest(`${where}.linkReferenceNumber ${incoming.linkReferenceNumber} appears twice`);
      }
      seen.add(incoming.linkReferenceNumber);
      const link = consent.linkedAccounts.find((candidate) => candidate.linkReferenceNumber === incoming.linkReferenceNumber);
      if (!link) throw invalidRequest(`${where}.linkReferenceNumber ${incoming.linkReferenceNumber} is not linked under consent ${consent.id}`);
      if (consent.type === "ONETIME" && link.currentSnapshotId) {
        throw conflict(`${where}: consent ${consent.id} is ONETIME; its data is a snapshot taken at approval and cannot be refreshed`);
      }
      return { link, account: this.#parse(incoming, where, link) };
    });

    const journeyID = request.journeyID ?? `jrn-${randomUUID()}`;
    const result: IngestResult = {
      journeyID,
      organisationId: consent.organisationId,
      accounts: writes.map(({ link, account }) => ({
        linkReferenceNumber: link.linkReferenceNumber,
        transactions: account.transactions.length,
        fipId: link.fipId,
        fiType: account.fiType,
      })),
    };
    try {
      await this.#fiData.storeJourney(
        { id: journeyID, organisationId: consent.organisationId, consentId: consent.id, configId: request.configId ?? "default", source: request.source ?? "admin" },
        writes.map(({ link, account }, index) => ({
          linkedAccountId: link.id,
          account,
          sourceFormat: request.accounts[index]?.format ?? "json",
        })),
        async (session) => {
          for (const hook of this.#hooks) await hook(session, result, consent.id);
          if (request.alsoInTransaction) await request.alsoInTransaction(session);
        },
      );
    } catch (error) {
      if (error instanceof JourneyExistsError) throw conflict(`Journey ${journeyID} already exists`);
      throw error;
    }
    return result;
  }

  #parse(incoming: IncomingAccount, where: string, link: LinkedAccountRecord): AccountData {
    try {
      const account = this.#parsers[incoming.format](incoming);
      if (account.linkedAccRef && account.linkedAccRef !== link.linkReferenceNumber) {
        throw new FieldError("Account.linkedAccRef", `(${account.linkedAccRef}) does not match linkReferenceNumber`);
      }
      return account;
    } catch (error) {
      if (error instanceof FieldError) throw invalidRequest(`${where}.data: ${error.message}`, { field: `${where}.data.${error.field}` });
      throw error;
    }
  }
}
