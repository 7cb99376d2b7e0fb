import type { ConsentRepository, ConsentWithLinks, LinkedAccountRecord } from "../db/repositories/consents.ts";
import type { TenantRepository } from "../db/repositories/tenants.ts";
import { isRecordMissing, isUniqueViolation } from "../db/repositories/errors.ts";
import { conflict, notFound } from "./errors.ts";

export const CONSENT_STATES = ["ACTIVE", "PAUSED", "REVOKED", "EXPIRED"] as const;
export type ConsentStateName = (typeof CONSENT_STATES)[number];
export type ConsentTypeName = "PERIODIC" | "ONETIME";

export interface LinkedAccountView {
  linkReferenceNumber: string;
  fipId: string;
  fipName: string;
  fiType: string;
  maskedAccountNumber: string;
  dataAvailable: boolean;
}

export interface ConsentView {
  consentID: string;
  organisationId: string;
  type: ConsentTypeName;
  state: ConsentStateName;
  links: LinkedAccountView[];
  createdAt: string;
  updatedAt: string;
}

/** Consent states are accepted in either case and kept upper-case. */
export function normaliseState(state: string): ConsentStateName {
  return state.toUpperCase() as ConsentStateName;
}

function linkView(link: LinkedAccountRecord): LinkedAccountView {
  return {
    linkReferenceNumber: link.linkReferenceNumber,
    fipId: link.fipId,
    fipName: link.fipName,
    fiType: link.fiType,
    maskedAccountNumber: link.maskedAccountNumber,
    dataAvailable: link.currentSnapshotId !== null,
  };
}

function consentView(consent: ConsentWithLinks): ConsentView {
  return {
    consentID: consent.id,
    organisationId: consent.organisationId,
    type: consent.type,
    state: consent.state,
    links: consent.linkedAccounts.map(linkView),
    createdAt: consent.createdAt.toISOString(),
    updatedAt: consent.updatedAt.toISOString(),
  };
}

export class ConsentService {
  readonly #consents: ConsentRepository;
  readonly #tenants: TenantRepository;

  constructor(consents: ConsentRepository, tenants: TenantRepository) {
    this.#consents = consents;
    this.#tenants = tenants;
  }

  async create(input: { consentID: string; organisationId: string; type: ConsentTypeName; state: string }): Promise<ConsentView> {
    if (!(await this.#tenants.findOrganisation(input.organisationId))) {
      throw notFound(`Organisation ${input.organisationId} does not exist`);
    }
    try {
      await this.#consents.create({
        id: input.consentID,
        organisationId: input.organisationId,
        type: input.type,
        state: normaliseState(input.state),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`Consent ${input.consentID} already exists`);
      throw error;
    }
    return this.get(input.consentID);
  }

  async get(consentID: string): Promise<ConsentView> {
    const consent = await this.#consents.findWithLinks(consentID);
    if (!consent) throw notFound(`Consent ${consentID} does not exist`);
    return consentView(consent);
  }

  async changeState(consentID: string, state: string): Promise<ConsentView> {
    try {
      await this.#consents.updateState(consentID, normaliseState(state));
    } catch (error) {
      if (isRecordMissing(error)) throw notFound(`Consent ${consentID} does not exist`);
      throw error;
    }
    return this.get(consentID);
  }

  async link(
    consentID: string,
    input: { linkReferenceNumber: string; fipId: string; fipName: string; fiType: string; maskedAccountNumber: string },
  ): Promise<LinkedAccountView> {
    const consent = await this.#consents.findWithLinks(consentID);
    if (!consent) throw notFound(`Consent ${consentID} does not exist`);
    try {
      return linkView(await this.#consents.createLink({ consentId: consentID, ...input }));
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw conflict(`Link ${input.linkReferenceNumber} already exists under consent ${consentID}`);
      }
      throw error;
    }
  }
}
