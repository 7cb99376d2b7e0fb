import type { IncomingAccount } from "../domain/fi-data/ingestion.ts";

export interface LinkedAccountRef {
  linkReferenceNumber: string;
  fipId: string;
  fipName: string;
  fiType: string;
  maskedAccountNumber: string;
}

/** One FI request to an Account Aggregator: the data of a consent's accounts for a range. */
export interface FiRequest {
  organisationId: string;
  consentId: string;
  links: readonly LinkedAccountRef[];
  /** YYYY-MM-DD, inclusive. */
  from: string;
  to: string;
}

/** The AA (or an FIP behind it) could not deliver; the reason is shown on the bulk row. */
export class AaError extends Error {}

/**
 * How the service asks Account Aggregators for FI data. The answer is one ReBIT Account per
 * linked account, which goes through the same ingestion path as the operator API.
 */
export interface AaConnector {
  readonly name: string;
  requestFiData(request: FiRequest): Promise<IncomingAccount[]>;
}
