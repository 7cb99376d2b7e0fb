/** The spec's transaction modes; anything else an FIP writes is reported as OTHERS. */
export const TRANSACTION_MODES = [
  "CASH", "UPI", "IMPS", "NEFT", "RTGS", "CARD", "ATM", "CHEQUE", "DEMAND_DRAFT",
  "AUTO_DEBIT", "INTEREST_CREDIT", "NACH", "ECS", "REMITTANCE", "OTHERS",
] as const;
export type TransactionMode = (typeof TRANSACTION_MODES)[number];

export type TransactionType = "CREDIT" | "DEBIT";

/** The three ReBIT FI schemas the service ingests. */
export type RebitAccountType = "deposit" | "term_deposit" | "recurring_deposit";

export interface Holder {
  name?: string;
  dob?: string;
  mobile?: string;
  nominee?: string;
  landline?: string;
  address?: string;
  email?: string;
  pan?: string;
  ckycCompliance?: string;
}

export interface HolderProfile {
  holdersType: string;
  holders: Holder[];
}

/** ReBIT Summary attributes as the FIP wrote them, plus its Pending items. */
export interface AccountSummary {
  attributes: Record<string, string>;
  pending: Array<Record<string, string>>;
}

export interface AccountTransaction {
  txnId: string;
  type: TransactionType;
  /** Exact decimal string. */
  amount: string;
  currentBalance: string | null;
  /** ISO 8601 date-time with offset. */
  transactionTimestamp: string;
  mode: TransactionMode;
  sourceMode: string | null;
  sourceType: string | null;
  narration: string | null;
  reference: string | null;
  /** YYYY-MM-DD */
  valueDate: string | null;
}

/** One linked account's data as received in one fetch: the unit of a snapshot. */
export interface AccountData {
  rebitType: RebitAccountType;
  schemaVersion: string;
  fiType: string;
  maskedAccountNumber: string;
  linkedAccRef: string;
  balance: string;
  currency: string;
  profile: HolderProfile;
  summary: AccountSummary;
  transactionsStart: string | null;
  transactionsEnd: string | null;
  transactions: AccountTransaction[];
}

/** A transaction as stored and answered: exact strings, with the FIP's own mode and type. */
export interface TransactionRecord {
  txnId: string;
  type: string;
  amount: string;
  currentBalance: string | null;
  transactionTimestamp: string;
  mode: string;
  narration: string | null;
  reference: string | null;
  valueDate: string | null;
  sourceMode: string | null;
  sourceType: string | null;
}
