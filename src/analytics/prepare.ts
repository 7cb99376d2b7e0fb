import { Categoriser, type CategoryKey } from "./categories.ts";
import { counterpartyOf } from "./counterparty.ts";
import { istDayOfTime, monthIndex } from "./dates.ts";
import type { AnalysisAccount, PreparedAccount, Txn } from "./types.ts";

/** A running balance that differs from the previous one plus the amount by more than a rupee. */
export const BREAK_TOLERANCE = 1;

const TRANSFER_CATEGORIES = new Set<CategoryKey>(["TRANSFER_IN_UPI", "TRANSFER_IN_BANK", "TRANSFER_OUT_UPI", "TRANSFER_OUT_BANK", "OTHER_CREDIT", "OTHER_DEBIT"]);
const SALARY_CANDIDATES = new Set<CategoryKey>(["TRANSFER_IN_UPI", "TRANSFER_IN_BANK", "OTHER_CREDIT"]);

const normaliseName = (name: string) => name.toUpperCase().replace(/[^A-Z ]/g, " ").replace(/\s+/g, " ").trim();

/**
 * Orders an account's transactions by time (ties keep the FIP's order), gives every one its day,
 * month, category and counterparty, and its running balance: the FIP's, or, where the FIP left
 * balances out, one rebuilt backwards from the account's current balance. Breaks of the running
 * balance are collected.
 */
export function prepareAccount(account: AnalysisAccount, index: number, categoriser: Categoriser): PreparedAccount {
  const order = account.transactions.map((t, i) => ({ t, i, time: Date.parse(t.transactionTimestamp) })).sort((a, b) => a.time - b.time || a.i - b.i);
  const complete = order.every(({ t }) => t.currentBalance !== null && Number.isFinite(t.currentBalance));
  const signed = order.map(({ t }) => (t.type === "CREDIT" ? t.amount : -t.amount));
  const balances = new Array<number>(order.length);
  if (complete) {
    order.forEach(({ t }, i) => (balances[i] = t.currentBalance as number));
  } else if (order.length > 0) {
    balances[order.length - 1] = account.balance;
    for (let i = order.length - 1; i > 0; i--) balances[i - 1] = (balances[i] as number) - (signed[i] as number);
  }
  const breaks: PreparedAccount["breaks"] = [];
  for (let i = 1; i < order.length; i++) {
    const expected = (balances[i - 1] as number) + (signed[i] as number);
    if (Math.abs(expected - (balances[i] as number)) > BREAK_TOLERANCE) breaks.push({ txnId: order[i]!.t.txnId, expected: round2(expected), found: balances[i] as number });
  }
  const txns: Txn[] = order.map(({ t, time }, i) => {
    const credit = t.type === "CREDIT";
    const narration = t.narration ?? "";
    const day = istDayOfTime(time);
    return {
      account: index,
      txnId: t.txnId,
      credit,
      amount: t.amount,
      balance: balances[i] as number,
      time,
      day,
      month: monthIndex(day),
      mode: t.mode,
      narration,
      category: categoriser.categorise(credit ? "CREDIT" : "DEBIT", t.mode, narration),
      counterparty: counterpartyOf(narration),
    };
  });
  return { index, source: account, txns, opening: order.length > 0 ? (balances[0] as number) - (signed[0] as number) : account.balance, breaks };
}

/**
 * Transfers between the journey's own accounts or its holders: a counterparty named like a
 * holder, or a narration that names another of the accounts (its last four digits).
 */
export function markSelfTransfers(accounts: PreparedAccount[]): void {
  const holders = new Set<string>();
  for (const account of accounts) for (const holder of account.source.profile.holders) if (holder.name) holders.add(normaliseName(holder.name));
  const tails = accounts.map((account) => account.source.maskedAccountNumber.replace(/\D/g, "").slice(-4));
  for (const account of accounts) {
    // Another account of the journey, written masked (XXXX4321, **4321) or as A/C 4321.
    const others = tails.filter((tail) => tail.length === 4 && tail !== tails[account.index]);
    const ownAccount = others.length ? new RegExp(`(?:[X*]{2,}|A/?C\\s*(?:NO\\.?)?\\s*)(?:${others.join("|")})\\b`, "i") : null;
    for (const txn of account.txns) {
      if (!TRANSFER_CATEGORIES.has(txn.category)) continue;
      const named = txn.counterparty && holders.has(normaliseName(txn.counterparty.name));
      const toOwnAccount = ownAccount?.test(txn.narration) ?? false;
      if (named || toOwnAccount) txn.category = txn.credit ? "TRANSFER_FROM_SELF" : "TRANSFER_TO_SELF";
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Salary by recurrence: credits from one counterparty in three or more months, within ±20% of
 * their median amount and ±5 days of their median day of the month.
 */
export function markRecurringSalary(txns: Txn[], dayOfMonth: (day: number) => number): void {
  const groups = new Map<string, Txn[]>();
  for (const txn of txns) {
    if (!txn.credit || !txn.counterparty || !SALARY_CANDIDATES.has(txn.category)) continue;
    const group = groups.get(txn.counterparty.key);
    if (group) group.push(txn);
    else groups.set(txn.counterparty.key, [txn]);
  }
  for (const group of groups.values()) {
    if (new Set(group.map((t) => t.month)).size < 3) continue;
    const amount = median(group.map((t) => t.amount));
    const day = median(group.map((t) => dayOfMonth(t.day)));
    const regular = group.filter((t) => Math.abs(t.amount - amount) <= 0.2 * amount && Math.abs(dayOfMonth(t.day) - day) <= 5);
    if (new Set(regular.map((t) => t.month)).size >= 3) for (const t of regular) t.category = "SALARY";
  }
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function round4(value: number): number {
  return Math.round(value * 10000) / 10000;
}
