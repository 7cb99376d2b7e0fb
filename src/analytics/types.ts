import type { CategoryKey } from "./categories.ts";
import type { Counterparty } from "./counterparty.ts";

export interface AnalysisTransaction {
  txnId: string;
  type: "CREDIT" | "DEBIT";
  amount: number;
  /** Running balance after the transaction; null when the FIP left it out. */
  currentBalance: number | null;
  transactionTimestamp: string;
  mode: string;
  narration: string | null;
  reference: string | null;
  valueDate: string | null;
}

export interface AnalysisAccount {
  linkReferenceNumber: string;
  fiType: string;
  maskedAccountNumber: string;
  /** Current balance from the account summary. */
  balance: number;
  currency: string;
  profile: { holdersType: string; holders: Array<Record<string, string | undefined>> };
  summary: { attributes: Record<string, string>; pending?: unknown[] };
  /** In the FIP's order (oldest first); ties in time keep it. */
  transactions: AnalysisTransaction[];
}

export interface AnalyticsSettings {
  /** Days of the month of the average bank balance table; 30 and 31 mean the month's last day. */
  abbDays: number[];
  /** The day the analysis is as of (YYYY-MM-DD); the newest transaction's day when absent. */
  asOf?: string | undefined;
  /** Which fiTypes are statements (analysed); others appear in accountProfiles and rawData. */
  statementTypes: string[];
  roundFigureMultiple: number;
  /** Round-figure credits are flagged above this share of all credits. */
  roundFigureShareThreshold: number;
  /** A debit at least this share of the salary, within 2 days after it, is flagged. */
  largeDebitAfterSalaryRatio: number;
  /** National bank holidays, MM-DD. */
  holidays: string[];
  /** Tried before the rule table: a regular expression on the narration and the category to give. */
  categoryOverrides: Array<{ match: string; category: string; side?: "CREDIT" | "DEBIT" | "ANY" }>;
}

/** One transaction inside the engine. */
export interface Txn {
  account: number;
  txnId: string;
  credit: boolean;
  amount: number;
  balance: number;
  /** Epoch milliseconds, for order within a day. */
  time: number;
  day: number;
  month: number;
  mode: string;
  narration: string;
  category: CategoryKey;
  counterparty: Counterparty | null;
}

export interface PreparedAccount {
  index: number;
  source: AnalysisAccount;
  /** Oldest first. */
  txns: Txn[];
  opening: number;
  breaks: Array<{ txnId: string; expected: number; found: number }>;
}
