import {
  TRANSACTION_MODES,
  type AccountData,
  type AccountTransaction,
  type Holder,
  type RebitAccountType,
  type TransactionMode,
  type TransactionType,
} from "../domain/fi-data/model.ts";
import { exactDecimal, FieldError, isoDate, isoDateTime } from "./values.ts";

type Node = Record<string, unknown>;

const FI_TYPES: Record<RebitAccountType, string> = {
  deposit: "DEPOSIT",
  term_deposit: "TERM_DEPOSIT",
  recurring_deposit: "RECURRING_DEPOSIT",
};

const HOLDER_ATTRIBUTES = ["name", "dob", "mobile", "nominee", "landline", "address", "email", "pan", "ckycCompliance"] as const;

// Modes FIPs write outside the spec's list, and what they mean in it.
const MODE_ALIASES: Record<string, TransactionMode> = {
  CARD_PAYMENT: "CARD",
  POS: "CARD",
  DEBIT_CARD: "CARD",
  CREDIT_CARD: "CARD",
  DD: "DEMAND_DRAFT",
  INTEREST: "INTEREST_CREDIT",
  ACH: "NACH",
  SI: "AUTO_DEBIT",
  STANDING_INSTRUCTION: "AUTO_DEBIT",
};

// Term and recurring deposit transaction types, as money into or out of the deposit.
const DEPOSIT_TYPE_DIRECTIONS: Record<string, TransactionType> = {
  OPENING: "CREDIT",
  INSTALLMENT: "CREDIT",
  INTEREST: "CREDIT",
  TDS: "DEBIT",
  CLOSING: "DEBIT",
};

const SUPPORTED_VERSION = /^(1\.\d+|2\.\d+)(\.\d+)?$/;

function asNode(value: unknown, field: string, required = true): Node | undefined {
  if (value === undefined || value === null) {
    if (required) throw new FieldError(field, "is required");
    return undefined;
  }
  if (typeof value !== "object" || Array.isArray(value)) throw new FieldError(field, "must be an element (object)");
  return value as Node;
}

function asList(value: unknown, field: string): Node[] {
  if (value === undefined || value === null || value === "") return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item, index) => asNode(item, Array.isArray(value) ? `${field}[${index}]` : field) as Node);
}

function text(node: Node, name: string, field: string, required: boolean): string | undefined {
  const value = node[name];
  if (value === undefined || value === null) {
    if (required) throw new FieldError(`${field}.${name}`, "is required");
    return undefined;
  }
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new FieldError(`${field}.${name}`, "must be a text value");
}

function attributes(node: Node): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out[key] = String(value);
  }
  return out;
}

/** The spec's mode for what the FIP wrote; a funds transfer takes its rail from the narration. */
export function normaliseMode(raw: string | undefined, narration: string | undefined): TransactionMode {
  const mode = (raw ?? "").trim().toUpperCase().replace(/[\s-]+/g, "_");
  if ((TRANSACTION_MODES as readonly string[]).includes(mode)) return mode as TransactionMode;
  if (MODE_ALIASES[mode]) return MODE_ALIASES[mode];
  if (mode === "FT") {
    const rail = /^(NEFT|IMPS|RTGS|UPI)\b/i.exec((narration ?? "").trim());
    if (rail) return (rail[1] as string).toUpperCase() as TransactionMode;
  }
  return "OTHERS";
}

function accountType(raw: string | undefined): RebitAccountType {
  const type = (raw ?? "").trim().toLowerCase().replace(/-/g, "_");
  if (type === "deposit" || type === "term_deposit" || type === "recurring_deposit") return type;
  throw new FieldError("Account.type", `must be deposit, term_deposit or recurring_deposit, got "${raw ?? ""}"`);
}

function transactionDirection(
  rebitType: RebitAccountType,
  rawType: string,
  balance: string | null,
  previousBalance: string | null,
  field: string,
): { type: TransactionType; sourceType: string | null } {
  const type = rawType.trim().toUpperCase();
  if (type === "CREDIT" || type === "DEBIT") return { type, sourceType: null };
  if (rebitType !== "deposit") {
    const direction = DEPOSIT_TYPE_DIRECTIONS[type];
    if (direction) return { type: direction, sourceType: type };
    if (type === "OTHERS") {
      const fell = balance !== null && previousBalance !== null && Number(balance) < Number(previousBalance);
      return { type: fell ? "DEBIT" : "CREDIT", sourceType: type };
    }
  }
  const allowed = rebitType === "deposit" ? "CREDIT or DEBIT" : "OPENING, INSTALLMENT, INTEREST, TDS, CLOSING, OTHERS, CREDIT or DEBIT";
  throw new FieldError(`${field}.type`, `must be ${allowed}, got "${rawType}"`);
}

function parseTransaction(node: Node, field: string, rebitType: RebitAccountType, previousBalance: string | null): AccountTransaction {
  const txnId = text(node, "txnId", field, true) as string;
  if (txnId.trim() === "") throw new FieldError(`${field}.txnId`, "must not be empty");
  const amount = exactDecimal(text(node, "amount", field, true), `${field}.amount`);
  if (amount.startsWith("-")) throw new FieldError(`${field}.amount`, "must not be negative; the type says the direction");
  const balanceName = node.currentBalance !== undefined ? "currentBalance" : "balance";
  const rawBalance = text(node, balanceName, field, false);
  const currentBalance = rawBalance === undefined || rawBalance.trim() === "" ? null : exactDecimal(rawBalance, `${field}.${balanceName}`);
  const timeName = node.transactionTimestamp !== undefined ? "transactionTimestamp" : "transactionDateTime";
  const rawTime = text(node, timeName, field, false);
  if (rawTime === undefined) throw new FieldError(`${field}.transactionTimestamp`, "is required");
  const narration = text(node, "narration", field, false) ?? null;
  const rawMode = text(node, "mode", field, false);
  const { type, sourceType } = transactionDirection(rebitType, text(node, "type", field, true) as string, currentBalance, previousBalance, field);
  const mode = sourceType === "INTEREST" && !rawMode?.trim() ? "INTEREST_CREDIT" : normaliseMode(rawMode, narration ?? undefined);
  const rawValueDate = text(node, "valueDate", field, false);
  return {
    txnId,
    type,
    amount,
    currentBalance,
    transactionTimestamp: isoDateTime(rawTime, `${field}.${timeName}`),
    mode,
    sourceMode: rawMode !== undefined && rawMode.trim().toUpperCase() !== mode ? rawMode : null,
    sourceType,
    narration,
    reference: text(node, "reference", field, false) ?? null,
    valueDate: rawValueDate === undefined || rawValueDate.trim() === "" ? null : isoDate(rawValueDate, `${field}.valueDate`),
  };
}

function summaryBalance(rebitType: RebitAccountType, summary: Node): string {
  if (rebitType === "deposit") {
    return exactDecimal(text(summary, "currentBalance", "Account.Summary", true), "Account.Summary.currentBalance");
  }
  const value = text(summary, "currentValue", "Account.Summary", false)?.trim() || text(summary, "principalAmount", "Account.Summary", false)?.trim();
  if (!value) throw new FieldError("Account.Summary.currentValue", "is required (or principalAmount)");
  return exactDecimal(value, "Account.Summary.currentValue");
}

/**
 * One ReBIT Account (deposit, term deposit or recurring deposit; FI schema 1.x or 2.x) in its JSON
 * form: elements as objects, attributes as their properties, repeated elements as arrays. The
 * XML form is parsed into this shape first (xml.ts).
 */
export function accountFromRebit(input: unknown, options: { fiType?: string | undefined } = {}): AccountData {
  const root = asNode(input, "Account") as Node;
  const account = (root.Account !== undefined ? asNode(root.Account, "Account") : root) as Node;
  const rebitType = accountType(text(account, "type", "Account", true));
  const schemaVersion = (text(account, "version", "Account", true) as string).trim();
  if (!SUPPORTED_VERSION.test(schemaVersion)) {
    throw new FieldError("Account.version", `must be an FI schema version 1.x or 2.x, got "${schemaVersion}"`);
  }
  const maskedAccountNumber = (text(account, "maskedAccNumber", "Account", true) as string).trim();
  if (maskedAccountNumber === "") throw new FieldError("Account.maskedAccNumber", "must not be empty");

  const profileNode = asNode(account.Profile, "Account.Profile", false);
  const holdersNode = profileNode ? asNode(profileNode.Holders, "Account.Profile.Holders", false) : undefined;
  const holders: Holder[] = asList(holdersNode?.Holder, "Account.Profile.Holders.Holder").map((holder) => {
    const out: Holder = {};
    for (const name of HOLDER_ATTRIBUTES) {
      const value = text(holder, name, "Account.Profile.Holders.Holder", false);
      if (value !== undefined) out[name] = value;
    }
    return out;
  });

  const summaryNode = asNode(account.Summary, "Account.Summary") as Node;
  const transactionsNode = asNode(account.Transactions, "Account.Transactions", false);
  const transactions: AccountTransaction[] = [];
  asList(transactionsNode?.Transaction, "Account.Transactions.Transaction").forEach((node, index) => {
    const previous = transactions[index - 1]?.currentBalance ?? null;
    transactions.push(parseTransaction(node, `Account.Transactions.Transaction[${index}]`, rebitType, previous));
  });

  const start = transactionsNode ? text(transactionsNode, "startDate", "Account.Transactions", false) : undefined;
  const end = transactionsNode ? text(transactionsNode, "endDate", "Account.Transactions", false) : undefined;
  const fiType = options.fiType ?? FI_TYPES[rebitType];
  if (options.fiType && FI_TYPES[rebitType].replace("_", "-") !== options.fiType && FI_TYPES[rebitType] !== options.fiType) {
    throw new FieldError("fiType", `${options.fiType} does not match the document's type ${rebitType}`);
  }
  return {
    rebitType,
    schemaVersion,
    fiType,
    maskedAccountNumber,
    linkedAccRef: text(account, "linkedAccRef", "Account", false)?.trim() ?? "",
    balance: summaryBalance(rebitType, summaryNode),
    currency: text(summaryNode, "currency", "Account.Summary", false)?.trim() || "INR",
    profile: { holdersType: (holdersNode && text(holdersNode, "type", "Account.Profile.Holders", false)) || "SINGLE", holders },
    summary: { attributes: attributes(summaryNode), pending: asList(summaryNode.Pending, "Account.Summary.Pending").map(attributes) },
    transactionsStart: start?.trim() ? isoDate(start, "Account.Transactions.startDate") : null,
    transactionsEnd: end?.trim() ? isoDate(end, "Account.Transactions.endDate") : null,
    transactions,
  };
}
