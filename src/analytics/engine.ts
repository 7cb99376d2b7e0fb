import { CATEGORIES, Categoriser, findCategory, type CategoryKey, type Override } from "./categories.ts";
import { civil, dayOfDate, daysInMonth, firstDayOfMonth, isoDateOf, isoWeek, monthIndex, monthOf, weekday, wholeMonthsBetween } from "./dates.ts";
import { markRecurringSalary, markSelfTransfers, prepareAccount, round2, round4 } from "./prepare.ts";
import type { AnalysisAccount, AnalyticsSettings, PreparedAccount, Txn } from "./types.ts";

export const DEFAULT_SETTINGS: AnalyticsSettings = {
  abbDays: [5, 10, 15, 20, 25, 31],
  statementTypes: ["DEPOSIT"],
  roundFigureMultiple: 1000,
  roundFigureShareThreshold: 0.3,
  largeDebitAfterSalaryRatio: 0.8,
  holidays: ["01-26", "08-15", "10-02"],
  categoryOverrides: [],
};

// Credits that are not income: money coming back, money of one's own, and borrowed money.
const NOT_NET_CREDIT = new Set<CategoryKey>(["TRANSFER_FROM_SELF", "REVERSAL", "REFUND", "ECS_BOUNCE", "INWARD_CHEQUE_BOUNCE", "LOAN_DISBURSAL"]);
const NOT_NET_DEBIT = new Set<CategoryKey>(["TRANSFER_TO_SELF", "OUTWARD_CHEQUE_BOUNCE"]);
const PENALTIES = new Set<CategoryKey>(["MIN_BALANCE_PENALTY", "CHEQUE_BOUNCE_CHARGES", "ECS_BOUNCE_CHARGES"]);
const INVESTMENTS = new Set<CategoryKey>(["MUTUAL_FUND", "STOCKS", "DEPOSIT_BOOKING", "GOLD", "CRYPTO", "INVESTMENT_REDEMPTION", "DEPOSIT_MATURITY", "DIVIDEND"]);
const TRANSFERS = new Set<CategoryKey>(["TRANSFER_IN_UPI", "TRANSFER_IN_BANK", "TRANSFER_OUT_UPI", "TRANSFER_OUT_BANK"]);
const BOUNCES = new Set<CategoryKey>(["INWARD_CHEQUE_BOUNCE", "OUTWARD_CHEQUE_BOUNCE", "ECS_BOUNCE"]);
const BOUNCE_CHARGES = new Set<CategoryKey>(["CHEQUE_BOUNCE_CHARGES", "ECS_BOUNCE_CHARGES"]);
const TECHNICAL_REASON = /SIGNATURE|UNDATED|STALE|POST ?DATED|STOP(PED)? PAYMENT|ACCOUNT CLOSED|INVALID ACCOUNT|MISMATCH|ALTERATION|MANDATE/;
const NON_TECHNICAL_REASON = /INSUFFICIENT|FUNDS|EXCEEDS ARRANGEMENT|BALANCE INSUFFICIENT/;
const UNUSUAL_SALARY_MODES = new Set(["UPI", "IMPS", "CHEQUE", "CASH"]);

const sum = (values: Iterable<number>) => {
  let total = 0;
  for (const value of values) total += value;
  return total;
};

function mean(values: number[]): number {
  return values.length ? sum(values) / values.length : 0;
}

function populationStd(values: number[]): number {
  if (values.length === 0) return 0;
  const m = mean(values);
  let squares = 0;
  for (const value of values) squares += (value - m) ** 2;
  return Math.sqrt(squares / values.length);
}

/** Coefficient of variation; 0 when the mean is 0. */
function cv(values: number[]): number {
  const m = mean(values);
  return m === 0 ? 0 : populationStd(values) / m;
}

/** The analysis window: days from the first transaction to the as-of day, and their months. */
interface Window {
  start: number;
  end: number;
  months: number[];
}

function monthsOf(start: number, end: number): number[] {
  const out: number[] = [];
  for (let m = monthIndex(start); m <= monthIndex(end); m++) out.push(m);
  return out;
}

/**
 * End-of-day balances of the accounts, summed, for every day of the window: a day without
 * transactions carries the previous EOD forward; before an account's first transaction its
 * opening balance holds.
 */
function dailyBalances(accounts: PreparedAccount[], window: Window): Float64Array {
  const length = window.end - window.start + 1;
  const total = new Float64Array(length);
  for (const account of accounts) {
    let balance = account.opening;
    let next = 0;
    const txns = account.txns;
    for (let d = 0; d < length; d++) {
      const day = window.start + d;
      while (next < txns.length && (txns[next] as Txn).day <= day) balance = (txns[next++] as Txn).balance;
      total[d] = (total[d] as number) + balance;
    }
  }
  return total;
}

interface Flows {
  credits: number;
  debits: number;
  creditCount: number;
  debitCount: number;
}

const newFlows = (): Flows => ({ credits: 0, debits: 0, creditCount: 0, debitCount: 0 });

function addFlow(flows: Flows, txn: Txn) {
  if (txn.credit) {
    flows.credits += txn.amount;
    flows.creditCount++;
  } else {
    flows.debits += txn.amount;
    flows.debitCount++;
  }
}

/** The overall figures of a set of accounts (all of them, or one for accountWiseAnalysis). */
function overall(accounts: PreparedAccount[], txns: Txn[], window: Window) {
  const eod = dailyBalances(accounts, window);
  const eodValues = Array.from(eod);
  let netCredit = 0;
  let netDebit = 0;
  let outwardUpi = 0;
  let loanCredit = 0;
  let cashDeposit = 0;
  let emiCount = 0;
  let penalties = false;
  let maximum = -Infinity;
  const weeks = new Map<number, Flows & { week: number; year: number; monday: number }>();
  for (const txn of txns) {
    if (txn.credit && !NOT_NET_CREDIT.has(txn.category)) netCredit += txn.amount;
    if (!txn.credit && !NOT_NET_DEBIT.has(txn.category)) netDebit += txn.amount;
    if (!txn.credit && txn.mode === "UPI") outwardUpi += txn.amount;
    if (txn.category === "LOAN_DISBURSAL") loanCredit += txn.amount;
    if (txn.credit && (txn.mode === "CASH" || txn.category === "CASH_DEPOSIT")) cashDeposit += txn.amount;
    if (txn.category === "EMI") emiCount++;
    if (PENALTIES.has(txn.category)) penalties = true;
    if (accounts.length === 1) maximum = Math.max(maximum, txn.balance);
    const monday = txn.day - weekday(txn.day);
    let bucket = weeks.get(monday);
    if (!bucket) weeks.set(monday, (bucket = { ...newFlows(), ...isoWeek(monday) }));
    addFlow(bucket, txn);
  }
  if (accounts.length !== 1 || txns.length === 0) maximum = Math.max(maximum, ...eodValues, ...accounts.map((a) => a.opening));

  // The last three full calendar months before the as-of day (its own month counts when the
  // as-of day is that month's last day).
  const asOfMonth = monthIndex(window.end);
  const lastFull = window.end === firstDayOfMonth(asOfMonth) + daysInMonth(asOfMonth) - 1 ? asOfMonth : asOfMonth - 1;
  const from = Math.max(firstDayOfMonth(lastFull - 2), window.start);
  const to = Math.min(firstDayOfMonth(lastFull) + daysInMonth(lastFull) - 1, window.end);
  const lastThreeMonths = from <= to ? eodValues.slice(from - window.start, to - window.start + 1) : eodValues;

  // Every ISO week of the window, including weeks without transactions.
  const weekly = [];
  for (let monday = window.start - weekday(window.start); monday <= window.end; monday += 7) {
    const bucket = weeks.get(monday) ?? { ...newFlows(), ...isoWeek(monday) };
    const first = Math.max(monday, window.start);
    const last = Math.min(monday + 6, window.end);
    const days = eodValues.slice(first - window.start, last - window.start + 1);
    weekly.push({
      week: bucket.week,
      year: bucket.year,
      month: civil(monday)[1],
      totalCreditAmount: round2(bucket.credits),
      totalDebitAmount: round2(bucket.debits),
      totalCreditTxn: bucket.creditCount,
      totalDebitTxn: bucket.debitCount,
      avgBalance: round2(mean(days)),
      closingBalance: round2(days.at(-1) ?? 0),
      surplusAmount: round2(bucket.credits - bucket.debits),
    });
  }
  return {
    eod,
    figures: {
      totalNetDebitTransactionAmount: round2(netDebit),
      totalNetCreditTransactionAmount: round2(netCredit),
      averageBalanceLast3Months: round2(mean(lastThreeMonths)),
      maximumBalance: round2(Number.isFinite(maximum) ? maximum : 0),
      minimumEodBalance: round2(eodValues.length ? Math.min(...eodValues) : 0),
      volatilityOfBalance: round2(populationStd(eodValues)),
      coefficientOfVariationOfBalance: round4(cv(eodValues)),
      monthlyAvgNetCreditAmount: round2(netCredit / window.months.length),
      totalOutwardUpiAmount: round2(outwardUpi),
      totalLoanCreditAmount: round2(loanCredit),
      totalCashDepositAmount: round2(cashDeposit),
      totalEmiTxns: emiCount,
      bankPenaltiesDetected: penalties,
      weeklyAnalytics: weekly,
    },
  };
}

interface SideStats {
  total: number;
  count: number;
  max: number;
  min: number;
}

interface CategoryStats {
  credit: SideStats;
  debit: SideStats;
  monthly: Map<number, Flows>;
}

const newSide = (): SideStats => ({ total: 0, count: 0, max: -Infinity, min: Infinity });

function categoryWise(txns: Txn[], window: Window) {
  const stats = new Map<CategoryKey, CategoryStats>();
  for (const txn of txns) {
    let entry = stats.get(txn.category);
    if (!entry) stats.set(txn.category, (entry = { credit: newSide(), debit: newSide(), monthly: new Map() }));
    const side = txn.credit ? entry.credit : entry.debit;
    side.total += txn.amount;
    side.count++;
    if (txn.amount > side.max) side.max = txn.amount;
    if (txn.amount < side.min) side.min = txn.amount;
    let month = entry.monthly.get(txn.month);
    if (!month) entry.monthly.set(txn.month, (month = newFlows()));
    addFlow(month, txn);
  }
  const months = window.months;
  const lastSix = months.slice(-6);
  const overallCategoryWiseAnalysis: Record<string, Record<string, number | string>> = {};
  const monthlyCategoryWiseAnalysis: Record<string, unknown[]> = {};
  for (const [key, entry] of stats) {
    const category = CATEGORIES[key];
    const out: Record<string, number | string> = {
      categoryCode: category.code,
      totalTransactions: entry.credit.count + entry.debit.count,
      totalCreditAmount: round2(entry.credit.total),
      totalDebitAmount: round2(entry.debit.total),
    };
    for (const [side, label] of [[entry.credit, "Credit"], [entry.debit, "Debit"]] as const) {
      if (side.count === 0) continue;
      const perMonth = months.map((m) => (label === "Credit" ? entry.monthly.get(m)?.credits : entry.monthly.get(m)?.debits) ?? 0);
      const lastSixTotal = sum(lastSix.map((m) => (label === "Credit" ? entry.monthly.get(m)?.credits : entry.monthly.get(m)?.debits) ?? 0));
      out[`avg${label}Amount`] = round2(side.total / side.count);
      out[`avgMonthly${label}`] = round2(side.total / months.length);
      out[`last6MonthAvg${label}Amount`] = round2(lastSixTotal / lastSix.length);
      out[`volatility${label}`] = round4(cv(perMonth));
      out[`maximum${label}Amount`] = round2(side.max);
      out[`minimum${label}Amount`] = round2(side.min);
    }
    overallCategoryWiseAnalysis[category.name] = out;
    monthlyCategoryWiseAnalysis[category.name] = [...entry.monthly.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([m, flows]) => ({ ...monthOf(m), totalCreditAmount: round2(flows.credits), totalDebitAmount: round2(flows.debits), totalCreditTxn: flows.creditCount, totalDebitTxn: flows.debitCount }));
  }
  return { overallCategoryWiseAnalysis, monthlyCategoryWiseAnalysis };
}

function accountProfile(account: AnalysisAccount, txns: Txn[], asOf: number) {
  const summary = account.summary.attributes;
  const opening = summary.openingDate ? dayOfDate(summary.openingDate) : null;
  let first = Infinity;
  let last = -Infinity;
  for (const t of txns) {
    if (t.day < first) first = t.day;
    if (t.day > last) last = t.day;
  }
  return {
    linkReferenceNumber: account.linkReferenceNumber,
    fiType: account.fiType,
    maskedAccountNumber: account.maskedAccountNumber,
    summary: {
      Status: summary.status ?? "ACTIVE",
      CurrentBalance: account.balance,
      AccountType: summary.type ?? summary.accountType ?? account.fiType,
      Currency: account.currency,
      ifsc: summary.ifscCode ?? summary.ifsc ?? "",
      branch: summary.branch ?? "",
      openingDate: opening !== null && Number.isFinite(opening) ? isoDateOf(opening) : null,
      accountVintageInMonths: opening !== null && Number.isFinite(opening) ? wholeMonthsBetween(opening, asOf) : null,
      transactionStartDate: txns.length ? isoDateOf(first) : null,
      transactionEndDate: txns.length ? isoDateOf(last) : null,
    },
    holders: {
      holder: account.profile.holders.map((holder) => ({ name: holder.name ?? "", dob: holder.dob ?? "", pan: holder.pan ?? "", mobile: holder.mobile ?? "", email: holder.email ?? "" })),
    },
  };
}

const indicator = (txns: Array<{ txnId: string }>, flag: boolean, extra: Record<string, unknown> = {}) => ({
  flag,
  count: txns.length,
  txnIds: txns.slice(0, 100).map((t) => t.txnId),
  ...extra,
});

function fcuIndicators(accounts: PreparedAccount[], txns: Txn[], eod: Float64Array, window: Window, settings: AnalyticsSettings) {
  const credits = txns.filter((t) => t.credit);
  const round = credits.filter((t) => t.amount >= settings.roundFigureMultiple && t.amount % settings.roundFigureMultiple === 0);
  const roundShare = credits.length ? round.length / credits.length : 0;
  const salaries = txns.filter((t) => t.category === "SALARY");
  const byMonth = (list: Txn[]) => {
    const map = new Map<number, number>();
    for (const t of list) map.set(t.month, (map.get(t.month) ?? 0) + t.amount);
    return map;
  };
  const salaryByMonth = byMonth(salaries);
  const cashByMonth = byMonth(credits.filter((t) => t.category === "CASH_DEPOSIT"));
  const cashAboveSalaryMonths = [...cashByMonth.entries()].filter(([m, cash]) => cash > (salaryByMonth.get(m) ?? 0) && (salaryByMonth.get(m) ?? 0) > 0);
  const holidays = new Set(settings.holidays);
  const offDays = txns.filter((t) => {
    const [, month, day] = civil(t.day);
    return weekday(t.day) === 6 || holidays.has(`${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`);
  });
  const negativeDays: string[] = [];
  eod.forEach((balance, d) => {
    if (balance < 0) negativeDays.push(isoDateOf(window.start + d));
  });
  const monthly = new Map<number, Flows>();
  for (const t of txns) {
    let flows = monthly.get(t.month);
    if (!flows) monthly.set(t.month, (flows = newFlows()));
    addFlow(flows, t);
  }
  const balancedMonths = [...monthly.entries()].filter(([, f]) => f.credits > 0 && f.debits > 0 && Math.abs(f.credits - f.debits) / Math.max(f.credits, f.debits) < 0.01).map(([m]) => monthOf(m));
  const sides = new Map<string, { credit: boolean; debit: boolean; name: string }>();
  for (const t of txns) {
    if (!t.counterparty || !TRANSFERS.has(t.category)) continue;
    const entry = sides.get(t.counterparty.key) ?? { credit: false, debit: false, name: t.counterparty.name };
    if (t.credit) entry.credit = true;
    else entry.debit = true;
    sides.set(t.counterparty.key, entry);
  }
  const rotation = [...sides.values()].filter((entry) => entry.credit && entry.debit).map((entry) => entry.name);
  // The largest salary of each account and day, so each debit looks at three days only.
  const salaryOn = new Map<string, number>();
  for (const s of salaries) salaryOn.set(`${s.account}:${s.day}`, Math.max(salaryOn.get(`${s.account}:${s.day}`) ?? 0, s.amount));
  const largeAfterSalary = salaries.length === 0 ? [] : txns.filter((t) => {
    if (t.credit) return false;
    for (let back = 0; back <= 2; back++) {
      const salary = salaryOn.get(`${t.account}:${t.day - back}`);
      if (salary !== undefined && t.amount >= settings.largeDebitAfterSalaryRatio * salary) return true;
    }
    return false;
  });
  return {
    runningBalanceBreaks: { flag: accounts.some((a) => a.breaks.length > 0), count: sum(accounts.map((a) => a.breaks.length)), txnIds: accounts.flatMap((a) => a.breaks.map((b) => b.txnId)).slice(0, 100), breaks: accounts.flatMap((a) => a.breaks.slice(0, 50)) },
    roundFigureCredits: indicator(round, roundShare > settings.roundFigureShareThreshold, { share: round4(roundShare), multiple: settings.roundFigureMultiple }),
    cashDepositsAboveSalary: { flag: cashAboveSalaryMonths.length > 0, count: cashAboveSalaryMonths.length, months: cashAboveSalaryMonths.map(([m]) => monthOf(m)), txnIds: [] as string[] },
    sundayAndHolidayTransactions: indicator(offDays, offDays.some((t) => t.mode === "CASH" || t.mode === "CHEQUE")),
    rtgsBelowMinimum: indicator(txns.filter((t) => t.mode === "RTGS" && t.amount < 200000), txns.some((t) => t.mode === "RTGS" && t.amount < 200000)),
    negativeEodBalanceDays: { flag: negativeDays.length > 0, count: negativeDays.length, days: negativeDays.slice(0, 100), txnIds: [] as string[] },
    equalMonthlyCreditsAndDebits: { flag: balancedMonths.length > 0, count: balancedMonths.length, months: balancedMonths, txnIds: [] as string[] },
    rotationCounterparties: { flag: rotation.length > 0, count: rotation.length, counterparties: rotation.slice(0, 50), txnIds: [] as string[] },
    largeDebitAfterSalary: indicator(largeAfterSalary, largeAfterSalary.length > 0),
    salaryByUnusualMode: indicator(salaries.filter((t) => UNUSUAL_SALARY_MODES.has(t.mode)), salaries.some((t) => UNUSUAL_SALARY_MODES.has(t.mode))),
  };
}

function bounceAnalysis(txns: Txn[]) {
  const kinds: Record<string, CategoryKey[]> = {
    inwardChequeBounces: ["INWARD_CHEQUE_BOUNCE"],
    outwardChequeBounces: ["OUTWARD_CHEQUE_BOUNCE"],
    ecsNachBounces: ["ECS_BOUNCE"],
    bounceCharges: ["CHEQUE_BOUNCE_CHARGES", "ECS_BOUNCE_CHARGES"],
  };
  const section: Record<string, unknown> = {};
  for (const [name, categories] of Object.entries(kinds)) {
    const list = txns.filter((t) => categories.includes(t.category));
    const monthly = new Map<number, { count: number; amount: number }>();
    for (const t of list) {
      const entry = monthly.get(t.month) ?? { count: 0, amount: 0 };
      entry.count++;
      entry.amount += t.amount;
      monthly.set(t.month, entry);
    }
    section[name] = {
      count: list.length,
      amount: round2(sum(list.map((t) => t.amount))),
      monthly: [...monthly.entries()].sort((a, b) => a[0] - b[0]).map(([m, e]) => ({ ...monthOf(m), count: e.count, amount: round2(e.amount) })),
    };
  }
  // Each return is paired with the debit it returns: same account, same amount, up to 3 days before.
  const used = new Set<Txn>();
  const pairs = [];
  let technical = 0;
  let nonTechnical = 0;
  for (const ret of txns.filter((t) => BOUNCES.has(t.category))) {
    const original = txns.find((t) => !used.has(t) && t !== ret && t.account === ret.account && t.credit !== ret.credit && Math.abs(t.amount - ret.amount) < 0.005 && t.time <= ret.time && ret.day - t.day <= 3 && !BOUNCES.has(t.category));
    const text = ret.narration.toUpperCase();
    const reason = TECHNICAL_REASON.test(text) ? "technical" : NON_TECHNICAL_REASON.test(text) ? "non-technical" : "unknown";
    if (reason === "technical") technical++;
    if (reason === "non-technical") nonTechnical++;
    if (original) used.add(original);
    pairs.push({ returnTxnId: ret.txnId, originalTxnId: original?.txnId ?? null, amount: ret.amount, date: isoDateOf(ret.day), reason });
  }
  return { ...section, totalBounces: pairs.length, technicalBounces: technical, nonTechnicalBounces: nonTechnical, pairs, bounceChargeTxnIds: txns.filter((t) => BOUNCE_CHARGES.has(t.category)).map((t) => t.txnId) };
}

function monthlyTotals(list: Txn[]) {
  const monthly = new Map<number, Flows>();
  for (const t of list) {
    let flows = monthly.get(t.month);
    if (!flows) monthly.set(t.month, (flows = newFlows()));
    addFlow(flows, t);
  }
  return [...monthly.entries()].sort((a, b) => a[0] - b[0]).map(([m, f]) => ({ ...monthOf(m), totalCreditAmount: round2(f.credits), totalDebitAmount: round2(f.debits), totalCreditTxn: f.creditCount, totalDebitTxn: f.debitCount }));
}

function transactionList(list: Txn[], limit = 500) {
  return list.slice(0, limit).map((t) => ({ txnId: t.txnId, date: isoDateOf(t.day), type: t.credit ? "CREDIT" : "DEBIT", amount: t.amount, category: CATEGORIES[t.category].name, narration: t.narration }));
}

interface PartyStats {
  name: string;
  key: string;
  credits: number;
  debits: number;
  creditCount: number;
  debitCount: number;
  first: number;
  last: number;
  creditMonths: Set<number>;
  debitMonths: Set<number>;
}

function counterparties(txns: Txn[]) {
  const parties = new Map<string, PartyStats>();
  for (const t of txns) {
    if (!t.counterparty) continue;
    let party = parties.get(t.counterparty.key);
    if (!party) {
      party = { name: t.counterparty.name, key: t.counterparty.key, credits: 0, debits: 0, creditCount: 0, debitCount: 0, first: t.day, last: t.day, creditMonths: new Set(), debitMonths: new Set() };
      parties.set(t.counterparty.key, party);
    }
    if (t.credit) {
      party.credits += t.amount;
      party.creditCount++;
      party.creditMonths.add(t.month);
    } else {
      party.debits += t.amount;
      party.debitCount++;
      party.debitMonths.add(t.month);
    }
    party.first = Math.min(party.first, t.day);
    party.last = Math.max(party.last, t.day);
  }
  return parties;
}

const partyView = (party: PartyStats) => ({
  counterparty: party.name,
  identifier: party.key,
  totalCreditAmount: round2(party.credits),
  totalDebitAmount: round2(party.debits),
  creditCount: party.creditCount,
  debitCount: party.debitCount,
  firstDate: isoDateOf(party.first),
  lastDate: isoDateOf(party.last),
});

function frequent(parties: Map<string, PartyStats>, side: "credit" | "debit") {
  return [...parties.values()]
    .filter((p) => (side === "credit" ? p.creditMonths : p.debitMonths).size >= 3)
    .sort((a, b) => (side === "credit" ? b.credits - a.credits : b.debits - a.debits))
    .map((p) => ({ ...partyView(p), distinctMonths: (side === "credit" ? p.creditMonths : p.debitMonths).size }));
}

function topTransfers(txns: Txn[]) {
  const transfers = counterparties(txns.filter((t) => TRANSFERS.has(t.category)));
  const top = (side: "credit" | "debit") =>
    [...transfers.values()]
      .filter((p) => (side === "credit" ? p.creditCount : p.debitCount) > 0)
      .sort((a, b) => (side === "credit" ? b.credits - a.credits : b.debits - a.debits))
      .slice(0, 5)
      .map(partyView);
  return { topCredits: top("credit"), topDebits: top("debit") };
}

function paymentTypes(txns: Txn[]) {
  const modes = new Map<string, Txn[]>();
  for (const t of txns) {
    const list = modes.get(t.mode);
    if (list) list.push(t);
    else modes.set(t.mode, [t]);
  }
  return Object.fromEntries(
    [...modes.entries()].sort().map(([mode, list]) => {
      const credits = list.filter((t) => t.credit);
      const debits = list.filter((t) => !t.credit);
      return [mode, { totalCreditAmount: round2(sum(credits.map((t) => t.amount))), totalDebitAmount: round2(sum(debits.map((t) => t.amount))), creditCount: credits.length, debitCount: debits.length, monthly: monthlyTotals(list) }];
    }),
  );
}

/** Month-wise average bank balance on the configured days; "30"/"31" mean the month's last day. */
function abbTables(eod: Float64Array, window: Window, days: number[]) {
  const rows = window.months.map((m) => {
    const length = daysInMonth(m);
    const balances: Record<string, number | null> = {};
    const values: number[] = [];
    for (const day of days) {
      const d = firstDayOfMonth(m) + Math.min(day, length) - 1;
      const value = d >= window.start && d <= window.end ? round2(eod[d - window.start] as number) : null;
      balances[String(day)] = value;
      if (value !== null) values.push(value);
    }
    return { ...monthOf(m), balances, averageBalance: values.length ? round2(mean(values)) : null };
  });
  const all = rows.flatMap((row) => (row.averageBalance === null ? [] : [row.averageBalance]));
  return { days, monthly: rows, overallAverageBalance: round2(mean(all)) };
}

function nudges(figures: ReturnType<typeof overall>["figures"], txns: Txn[], bounces: ReturnType<typeof bounceAnalysis>, window: Window) {
  const out: Array<{ code: string; severity: "info" | "low" | "medium" | "high"; message: string; figure: number }> = [];
  const income = figures.monthlyAvgNetCreditAmount;
  const emiMonthly = sum(txns.filter((t) => t.category === "EMI").map((t) => t.amount)) / window.months.length;
  if (emiMonthly > 0 && income > 0) {
    const ratio = emiMonthly / income;
    out.push({ code: "EMI_TO_INCOME", severity: ratio > 0.5 ? "high" : ratio > 0.3 ? "medium" : "low", message: `EMI outflow is ${Math.round(ratio * 100)}% of average monthly net credit`, figure: round4(ratio) });
  }
  const salaryMonths = new Set(txns.filter((t) => t.category === "SALARY").map((t) => t.month)).size;
  out.push(
    salaryMonths > 0
      ? { code: "SALARY_DETECTED", severity: "info", message: `Salary credited in ${salaryMonths} of ${window.months.length} months`, figure: salaryMonths }
      : { code: "NO_SALARY", severity: "medium", message: "No salary credits were found", figure: 0 },
  );
  if (bounces.totalBounces > 0) out.push({ code: "BOUNCES", severity: bounces.totalBounces > 2 ? "high" : "medium", message: `${bounces.totalBounces} bounced payment(s) in the period`, figure: bounces.totalBounces });
  if (figures.bankPenaltiesDetected) out.push({ code: "PENALTIES", severity: "medium", message: "Bank penalties or bounce charges were levied", figure: txns.filter((t) => PENALTIES.has(t.category)).length });
  const cash = sum(txns.filter((t) => t.category === "CASH_WITHDRAWAL").map((t) => t.amount));
  const debits = figures.totalNetDebitTransactionAmount;
  if (debits > 0 && cash / debits > 0.25) out.push({ code: "HIGH_CASH_WITHDRAWAL", severity: "medium", message: `Cash withdrawals are ${Math.round((cash / debits) * 100)}% of debits`, figure: round4(cash / debits) });
  const deficitWeeks = figures.weeklyAnalytics.filter((w) => w.surplusAmount < 0).length;
  if (figures.minimumEodBalance < 0) out.push({ code: "NEGATIVE_BALANCE", severity: "high", message: "The balance went below zero", figure: figures.minimumEodBalance });
  out.push({ code: "SURPLUS_WEEKS", severity: "info", message: `${figures.weeklyAnalytics.length - deficitWeeks} of ${figures.weeklyAnalytics.length} weeks ended with more coming in than going out`, figure: figures.weeklyAnalytics.length - deficitWeeks });
  return { items: out };
}

function overridesOf(settings: AnalyticsSettings): Override[] {
  return settings.categoryOverrides.flatMap((override) => {
    const category = findCategory(override.category);
    if (!category) return [];
    return [{ pattern: new RegExp(override.match, "i"), category, side: override.side ?? "ANY" }];
  });
}

/**
 * bankingAnalysis of a journey's accounts: the fifteen sections of the spec, computed from the
 * transactions and account summaries alone (no I/O, no clock; the as-of day is an input or the
 * newest transaction's day). Statement accounts (savings and current: fiType DEPOSIT by default)
 * are analysed; every account has its profile.
 */
export function analyse(accounts: AnalysisAccount[], settings: AnalyticsSettings = DEFAULT_SETTINGS) {
  const categoriser = new Categoriser(overridesOf(settings));
  const statementTypes = new Set(settings.statementTypes);
  const prepared = accounts.filter((a) => statementTypes.has(a.fiType)).map((a, i) => prepareAccount(a, i, categoriser));
  markSelfTransfers(prepared);
  const txns = prepared.flatMap((a) => a.txns).sort((a, b) => a.day - b.day);
  markRecurringSalary(txns, (day) => civil(day)[2]);

  const lastDay = txns.length ? (txns.at(-1) as Txn).day : settings.asOf ? dayOfDate(settings.asOf) : 0;
  const end = settings.asOf ? dayOfDate(settings.asOf) : lastDay;
  const start = txns.length ? Math.min((txns[0] as Txn).day, end) : end;
  const window: Window = { start, end, months: monthsOf(start, end) };
  const inWindow = txns.filter((t) => t.day <= end);

  const { eod, figures } = overall(prepared, inWindow, window);
  const bounces = bounceAnalysis(inWindow);
  const parties = counterparties(inWindow);
  const accountWiseAnalysis = Object.fromEntries(
    prepared.map((account) => [account.source.linkReferenceNumber, { maskedAccountNumber: account.source.maskedAccountNumber, ...overall([account], account.txns.filter((t) => t.day <= end), window).figures }]),
  );
  return {
    overallAnalysis: figures,
    completeCategoryWiseAnalysis: categoryWise(inWindow, window),
    accountProfiles: accounts.map((account) => accountProfile(account, prepared.find((p) => p.source === account)?.txns ?? [], end)),
    fcuIndicators: fcuIndicators(prepared, inWindow, eod, window, settings),
    bounceAnalysis: bounces,
    accountWiseAnalysis,
    investmentAnalysis: (() => {
      const list = inWindow.filter((t) => INVESTMENTS.has(t.category));
      return { totalInvested: round2(sum(list.filter((t) => !t.credit).map((t) => t.amount))), totalRedeemedOrEarned: round2(sum(list.filter((t) => t.credit).map((t) => t.amount))), monthly: monthlyTotals(list), transactions: transactionList(list) };
    })(),
    loanCreditsAnalysis: (() => {
      const list = inWindow.filter((t) => t.category === "LOAN_DISBURSAL");
      const emis = inWindow.filter((t) => t.category === "EMI");
      return { totalLoanCredits: round2(sum(list.map((t) => t.amount))), count: list.length, monthly: monthlyTotals(list), transactions: transactionList(list), emiDebits: { total: round2(sum(emis.map((t) => t.amount))), count: emis.length, monthly: monthlyTotals(emis) } };
    })(),
    counterPartyAnalysis: {
      totalCounterparties: parties.size,
      counterparties: [...parties.values()].sort((a, b) => b.credits + b.debits - (a.credits + a.debits)).slice(0, 100).map(partyView),
    },
    nudges: nudges(figures, inWindow, bounces, window),
    abbTables: abbTables(eod, window, settings.abbDays),
    top5FundTransfer: topTransfers(inWindow),
    frequentCredits: { counterparties: frequent(parties, "credit") },
    frequentDebits: { counterparties: frequent(parties, "debit") },
    paymentTypeAnalytics: paymentTypes(inWindow),
  };
}

export type BankingAnalysis = ReturnType<typeof analyse>;
