import { describe, expect, it } from "vitest";
import { CATEGORIES, Categoriser, RULES } from "../../src/analytics/categories.ts";
import { counterpartyOf } from "../../src/analytics/counterparty.ts";
import { analyse, DEFAULT_SETTINGS } from "../../src/analytics/engine.ts";
import type { AnalysisAccount, AnalysisTransaction } from "../../src/analytics/types.ts";
import { currentAccount, savingsAccount } from "../../src/domain/demo/statements.ts";
import { accountFromRebit } from "../../src/serialization/rebit.ts";

type Row = [when: string, type: "CREDIT" | "DEBIT", amount: number, balance: number | null, mode: string, narration: string];

let counter = 0;
function account(rows: Row[], options: { balance?: number; masked?: string; holder?: string; openingDate?: string } = {}): AnalysisAccount {
  const transactions: AnalysisTransaction[] = rows.map(([when, type, amount, balance, mode, narration]) => ({
    txnId: `T${++counter}`,
    type,
    amount,
    currentBalance: balance,
    transactionTimestamp: `${when.replace(" ", "T")}:00+05:30`,
    mode,
    narration,
    reference: null,
    valueDate: when.slice(0, 10),
  }));
  return {
    linkReferenceNumber: `link-${counter}`,
    fiType: "DEPOSIT",
    maskedAccountNumber: options.masked ?? "XXXXXX1111",
    balance: options.balance ?? (rows.at(-1)?.[3] ?? 0),
    currency: "INR",
    profile: { holdersType: "SINGLE", holders: [{ name: options.holder ?? "Asha Verma", pan: "ABCPV1234K" }] },
    summary: { attributes: { openingDate: options.openingDate ?? "2020-01-15", type: "SAVINGS", status: "ACTIVE", ifscCode: "DEMO0001", branch: "MG Road" } },
    transactions,
  };
}

const settings = (overrides: Partial<typeof DEFAULT_SETTINGS> = {}) => ({ ...DEFAULT_SETTINGS, ...overrides });

describe("daily balances and the overall figures", () => {
  // Opening 500 (1500 - 1000). EODs: 03-02 1300, 03-03 1300 (carried), 03-04 2000, 03-05 2000
  // (carried), 03-06 -500, 03-07 -500 (carried to the as-of day).
  const statement = account([
    ["2026-03-02 10:00", "CREDIT", 1000, 1500, "NEFT", "NEFT-N1-GLOBEX INDIA-INVOICE 17"],
    ["2026-03-02 15:00", "DEBIT", 200, 1300, "UPI", "UPI/430912345678/RAVI KUMAR/ravi@okaxis/Sent"],
    ["2026-03-04 09:00", "CREDIT", 700, 2000, "IMPS", "IMPS/P2A/5566/PRIYA NAIR/HDFC"],
    ["2026-03-06 12:00", "DEBIT", 2500, -500, "NEFT", "NEFT-N2-MEHTA TRADERS-PAYMENT"],
  ]);
  const result = analyse([statement], settings({ asOf: "2026-03-07" }));
  const eods = [1300, 1300, 2000, 2000, -500, -500];
  const mean = (1300 + 1300 + 2000 + 2000 - 500 - 500) / 6;
  const variance = (2 * (1300 - mean) ** 2 + 2 * (2000 - mean) ** 2 + 2 * (-500 - mean) ** 2) / 6;

  it("carries the EOD balance forward over days without transactions", () => {
    expect(result.abbTables.monthly.find((m) => m.month === 3)?.balances["5"]).toBe(2000);
    expect(result.overallAnalysis.minimumEodBalance).toBe(-500);
    expect(result.overallAnalysis.maximumBalance).toBe(2000);
    expect(result.fcuIndicators.negativeEodBalanceDays).toMatchObject({ flag: true, count: 2, days: ["2026-03-06", "2026-03-07"] });
    expect(eods.length).toBe(6);
  });

  it("averages the last three months on days (the whole window when it holds no full month), and measures volatility", () => {
    expect(result.overallAnalysis.averageBalanceLast3Months).toBe(Math.round(mean * 100) / 100);
    expect(result.overallAnalysis.volatilityOfBalance).toBe(Math.round(Math.sqrt(variance) * 100) / 100);
    expect(result.overallAnalysis.coefficientOfVariationOfBalance).toBe(Math.round((Math.sqrt(variance) / mean) * 10000) / 10000);
  });

  it("totals net credits and debits, per month, and by the week", () => {
    expect(result.overallAnalysis).toMatchObject({ totalNetCreditTransactionAmount: 1700, totalNetDebitTransactionAmount: 2700, monthlyAvgNetCreditAmount: 1700, totalOutwardUpiAmount: 200 });
    expect(result.overallAnalysis.weeklyAnalytics).toEqual([
      { week: 10, year: 2026, month: 3, totalCreditAmount: 1700, totalDebitAmount: 2700, totalCreditTxn: 2, totalDebitTxn: 2, avgBalance: Math.round(mean * 100) / 100, closingBalance: -500, surplusAmount: -1000 },
    ]);
  });
});

describe("ISO weeks across a year boundary", () => {
  it("puts 2020-12-28..2021-01-03 in 2020-W53 and 2021-01-04 in 2021-W01, month of the Monday", () => {
    const result = analyse([
      account([
        ["2020-12-28 10:00", "CREDIT", 100, 100, "UPI", "UPI/111111111111/A/a@x/Sent"],
        ["2021-01-03 10:00", "DEBIT", 30, 70, "UPI", "UPI/222222222222/B/b@x/Sent"],
        ["2021-01-04 10:00", "CREDIT", 50, 120, "UPI", "UPI/333333333333/C/c@x/Sent"],
      ]),
    ]);
    expect(result.overallAnalysis.weeklyAnalytics).toEqual([
      { week: 53, year: 2020, month: 12, totalCreditAmount: 100, totalDebitAmount: 30, totalCreditTxn: 1, totalDebitTxn: 1, avgBalance: Math.round(((100 * 6 + 70) / 7) * 100) / 100, closingBalance: 70, surplusAmount: 70 },
      { week: 1, year: 2021, month: 1, totalCreditAmount: 50, totalDebitAmount: 0, totalCreditTxn: 1, totalDebitTxn: 0, avgBalance: 120, closingBalance: 120, surplusAmount: 50 },
    ]);
  });
});

describe("average bank balance tables", () => {
  it("maps 30 and 31 to the last day of shorter months, February included", () => {
    const result = analyse(
      [
        account([
          ["2026-02-01 10:00", "CREDIT", 1000, 1000, "NEFT", "NEFT-A-X-Y"],
          ["2026-02-20 10:00", "CREDIT", 500, 1500, "NEFT", "NEFT-B-X-Y"],
          ["2026-03-10 10:00", "DEBIT", 300, 1200, "NEFT", "NEFT-C-X-Y"],
        ]),
      ],
      settings({ abbDays: [5, 15, 30, 31], asOf: "2026-03-31" }),
    );
    expect(result.abbTables.monthly).toEqual([
      { year: 2026, month: 2, balances: { "5": 1000, "15": 1000, "30": 1500, "31": 1500 }, averageBalance: 1250 },
      { year: 2026, month: 3, balances: { "5": 1500, "15": 1200, "30": 1200, "31": 1200 }, averageBalance: 1275 },
    ]);
    expect(result.abbTables.overallAverageBalance).toBe(1262.5);
    // As of a month's last day, that month is full: Feb 1-19 at 1000, Feb 20 - Mar 9 at 1500, Mar 10-31 at 1200.
    expect(result.overallAnalysis.averageBalanceLast3Months).toBe(Math.round(((19 * 1000 + 18 * 1500 + 22 * 1200) / 59) * 100) / 100);
  });
});

describe("salary", () => {
  const result = analyse([
    account([
      ["2026-01-01 10:00", "CREDIT", 50000, 50000, "NEFT", "NEFT-N1-GLOBEX INDIA-PAYOUT"],
      ["2026-01-31 10:00", "CREDIT", 70000, 120000, "NEFT", "NEFT-N9-ACME CORP-SALARY JAN"],
      ["2026-02-02 10:00", "CREDIT", 52000, 172000, "NEFT", "NEFT-N2-GLOBEX INDIA-PAYOUT"],
      ["2026-02-10 10:00", "CREDIT", 8000, 180000, "NEFT", "NEFT-N7-INITECH-FEES"],
      ["2026-03-03 10:00", "CREDIT", 49000, 229000, "NEFT", "NEFT-N3-GLOBEX INDIA-PAYOUT"],
      ["2026-03-10 10:00", "CREDIT", 9000, 238000, "NEFT", "NEFT-N8-INITECH-FEES"],
      ["2026-03-20 10:00", "CREDIT", 5000, 243000, "NEFT", "NEFT-N4-GLOBEX INDIA-BONUS PAYOUT"],
    ]),
  ]);
  const categories = result.completeCategoryWiseAnalysis.overallCategoryWiseAnalysis;

  it("is found by keyword, and by a credit recurring in 3+ months within ±20% and ±5 days", () => {
    // Keyword: ACME's 70,000. Recurrence: GLOBEX's 50,000, 52,000 and 49,000 (days 1, 2, 3);
    // GLOBEX's 5,000 is no salary (amount), INITECH's two months are too few.
    expect(categories.Salary).toMatchObject({ categoryCode: "SAL", totalTransactions: 4, totalCreditAmount: 221000 });
    expect(categories.Bonus).toMatchObject({ totalCreditAmount: 5000 });
    expect(categories["Transfer In (NEFT/RTGS/IMPS)"]).toMatchObject({ totalTransactions: 2, totalCreditAmount: 17000 });
  });

  it("computes the category statistics over the months spanned", () => {
    // Salary by month: Jan 120,000, Feb 52,000, Mar 49,000 over 3 months.
    const monthly = [120000, 52000, 49000];
    const m = (120000 + 52000 + 49000) / 3;
    const cv = Math.sqrt(monthly.reduce((sum, v) => sum + (v - m) ** 2, 0) / 3) / m;
    expect(categories.Salary).toMatchObject({
      avgCreditAmount: 55250,
      avgMonthlyCredit: 73666.67,
      last6MonthAvgCreditAmount: 73666.67,
      volatilityCredit: Math.round(cv * 10000) / 10000,
      maximumCreditAmount: 70000,
      minimumCreditAmount: 49000,
    });
    expect(categories.Salary).not.toHaveProperty("avgDebitAmount");
    expect(result.completeCategoryWiseAnalysis.monthlyCategoryWiseAnalysis.Salary).toEqual([
      { year: 2026, month: 1, totalCreditAmount: 120000, totalDebitAmount: 0, totalCreditTxn: 2, totalDebitTxn: 0 },
      { year: 2026, month: 2, totalCreditAmount: 52000, totalDebitAmount: 0, totalCreditTxn: 1, totalDebitTxn: 0 },
      { year: 2026, month: 3, totalCreditAmount: 49000, totalDebitAmount: 0, totalCreditTxn: 1, totalDebitTxn: 0 },
    ]);
  });

  it("flags a salary credited by an unusual mode and a large debit right after it", () => {
    const flagged = analyse([
      account([
        ["2026-04-01 09:00", "CREDIT", 60000, 60000, "UPI", "UPI/998877665544/ACME CORP/acme@icici/SALARY APR"],
        ["2026-04-02 09:00", "DEBIT", 55000, 5000, "NEFT", "NEFT-N5-SOMEONE-TRANSFER"],
      ]),
    ]);
    expect(flagged.fcuIndicators.salaryByUnusualMode).toMatchObject({ flag: true, count: 1 });
    expect(flagged.fcuIndicators.largeDebitAfterSalary).toMatchObject({ flag: true, count: 1 });
  });
});

describe("bounces", () => {
  const statement = account([
    ["2026-05-01 09:00", "CREDIT", 20000, 20000, "NEFT", "NEFT-N1-GLOBEX-SALARY MAY"],
    ["2026-05-05 06:00", "DEBIT", 5000, 15000, "NACH", "ACH D- HDFC BANK-LOAN EMI 0042"],
    ["2026-05-05 20:00", "CREDIT", 5000, 20000, "NACH", "ACH D- RETURN-HDFC BANK-INSUFFICIENT FUNDS"],
    ["2026-05-06 09:00", "DEBIT", 590, 19410, "OTHERS", "NACH RETURN CHARGES INCL GST"],
    ["2026-05-10 09:00", "DEBIT", 3000, 16410, "CHEQUE", "CHQ PAID-000045-LANDLORD"],
    ["2026-05-12 09:00", "CREDIT", 3000, 19410, "CHEQUE", "CHQ RETURN-000045-SIGNATURE MISMATCH"],
  ]);
  const result = analyse([statement]);

  it("pairs each return with the debit it returns and tells technical from non-technical reasons", () => {
    expect(result.bounceAnalysis.pairs).toEqual([
      { returnTxnId: statement.transactions[2]!.txnId, originalTxnId: statement.transactions[1]!.txnId, amount: 5000, date: "2026-05-05", reason: "non-technical" },
      { returnTxnId: statement.transactions[5]!.txnId, originalTxnId: statement.transactions[4]!.txnId, amount: 3000, date: "2026-05-12", reason: "technical" },
    ]);
    expect(result.bounceAnalysis).toMatchObject({
      totalBounces: 2,
      technicalBounces: 1,
      nonTechnicalBounces: 1,
      ecsNachBounces: { count: 1, amount: 5000, monthly: [{ year: 2026, month: 5, count: 1, amount: 5000 }] },
      inwardChequeBounces: { count: 1, amount: 3000 },
      bounceCharges: { count: 1, amount: 590 },
    });
  });

  it("keeps returned money out of net credits and detects the penalty", () => {
    expect(result.overallAnalysis.totalNetCreditTransactionAmount).toBe(20000);
    expect(result.overallAnalysis.bankPenaltiesDetected).toBe(true);
    expect(result.overallAnalysis.totalEmiTxns).toBe(1);
  });
});

describe("running balances", () => {
  it("reports a break where the balance does not follow from the previous one and the amount", () => {
    const statement = account([
      ["2026-06-01 10:00", "CREDIT", 1000, 1000, "UPI", "UPI/1/A/a@x/Sent"],
      ["2026-06-02 10:00", "CREDIT", 100, 1100, "UPI", "UPI/2/A/a@x/Sent"],
      ["2026-06-03 10:00", "DEBIT", 50, 1000, "UPI", "UPI/3/A/a@x/Sent"],
      ["2026-06-04 10:00", "DEBIT", 0.5, 999.5, "UPI", "UPI/4/A/a@x/Sent"],
    ]);
    const result = analyse([statement]);
    expect(result.fcuIndicators.runningBalanceBreaks).toMatchObject({ flag: true, count: 1, txnIds: [statement.transactions[2]!.txnId], breaks: [{ txnId: statement.transactions[2]!.txnId, expected: 1050, found: 1000 }] });
  });

  it("rebuilds missing running balances backwards from the current balance", () => {
    const result = analyse([
      account(
        [
          ["2026-06-01 10:00", "CREDIT", 1000, null, "NEFT", "NEFT-A-X-Y"],
          ["2026-06-02 10:00", "DEBIT", 300, null, "NEFT", "NEFT-B-X-Y"],
          ["2026-06-03 10:00", "CREDIT", 100, null, "NEFT", "NEFT-C-X-Y"],
        ],
        { balance: 800 },
      ),
    ]);
    // 800 now; 700 before the 100 credit; 1000 before the 300 debit; opening 0.
    expect(result.abbTables.monthly[0]?.balances).toMatchObject({ "5": null });
    expect(result.overallAnalysis).toMatchObject({ maximumBalance: 1000, minimumEodBalance: 700 });
    expect(result.fcuIndicators.runningBalanceBreaks.count).toBe(0);
  });
});

describe("categories and counterparties", () => {
  it("has at least 50 categories, and a rule table (data), not code", () => {
    expect(Object.keys(CATEGORIES).length).toBeGreaterThanOrEqual(50);
    expect(new Set(Object.values(CATEGORIES).map((c) => c.name)).size).toBe(Object.keys(CATEGORIES).length);
    expect(RULES.length).toBeGreaterThan(50);
  });

  it.each([
    ["DEBIT", "UPI", "UPI/430912345678/SWIGGY/swiggy@icici/Payment", "Food & Dining"],
    ["DEBIT", "UPI", "UPI/430912345678/CORNER SHOP/shop@ybl/Payment", "UPI Merchant Payment"],
    ["DEBIT", "UPI", "UPI/430912345678/RAVI KUMAR/ravi@oksbi/Sent", "Transfer Out (UPI)"],
    ["CREDIT", "NEFT", "NEFT-CITIN2026-ACME TECHNOLOGIES-SALARY NOV", "Salary"],
    ["DEBIT", "NACH", "ACH D- BAJAJ FINANCE LTD-BFL000012", "EMI"],
    ["DEBIT", "NACH", "ACH D- BSE LIMITED-SIP FLEXI CAP", "Mutual Fund/SIP"],
    ["CREDIT", "NACH", "ACH D- RETURN-BAJAJ FINANCE LTD-INSUFFICIENT FUNDS", "ECS/NACH Bounce"],
    ["DEBIT", "OTHERS", "NACH RETURN CHARGES INCL GST", "ECS/NACH Bounce Charges"],
    ["DEBIT", "OTHERS", "MIN BAL CHARGES FOR OCT", "Minimum Balance Penalty"],
    ["DEBIT", "OTHERS", "SMS ALERT CHARGES QTR", "Bank Charges"],
    ["DEBIT", "ATM", "ATM WDL-SBI ATM MG ROAD", "Cash Withdrawal"],
    ["CREDIT", "CASH", "CASH DEPOSIT-SELF", "Cash Deposit"],
    ["CREDIT", "INTEREST_CREDIT", "SB INTEREST", "Interest Received"],
    ["DEBIT", "OTHERS", "GST PAYMENT-GSTN-CPIN26", "Tax Payment"],
    ["DEBIT", "OTHERS", "IB BILLPAY DR-HDFC CREDIT CARD", "Credit Card Payment"],
    ["CREDIT", "CARD", "POS SETTLEMENT-HDFC MERCHANT SERVICES", "Card/Merchant Settlement"],
    ["CREDIT", "NEFT", "NEFT-X-BAJAJ FINANCE-LOAN DISBURSAL", "Loan Disbursal"],
    ["CREDIT", "UPI", "UPI/1234/AMAZON PAY REFUND/amazon@apl/Refund", "Refund"],
    ["DEBIT", "UPI", "UPI/5678/RAJESH/rajesh@hdfc/Rent NOV", "Rent Paid"],
    ["DEBIT", "OTHERS", "SOMETHING ELSE ENTIRELY", "Others"],
  ])("categorises a %s (%s) %s as %s", (side, mode, narration, name) => {
    const key = new Categoriser().categorise(side as "CREDIT" | "DEBIT", mode, narration);
    expect(CATEGORIES[key].name).toBe(name);
  });

  it("applies a configuration's overrides before the rules", () => {
    const result = analyse([account([["2026-07-01 10:00", "DEBIT", 999, 1, "UPI", "UPI/123412341234/GYM FLEX/gym@okaxis/Membership"]])], settings({ categoryOverrides: [{ match: "GYM", category: "Entertainment" }] }));
    expect(Object.keys(result.completeCategoryWiseAnalysis.overallCategoryWiseAnalysis)).toEqual(["Entertainment"]);
  });

  it.each([
    ["UPI/430912345678/RAVI KUMAR/ravi@okaxis/Sent", { key: "ravi@okaxis", name: "RAVI KUMAR", vpa: "ravi@okaxis" }],
    ["UPI/P2M/430912345678/SWIGGY/swiggy@icici/Food", { key: "swiggy@icici", name: "SWIGGY", vpa: "swiggy@icici" }],
    ["NEFT-CITIN20261101123456-ACME TECHNOLOGIES PVT LTD-SALARY", { key: "acme technologies pvt ltd", name: "ACME TECHNOLOGIES PVT LTD" }],
    ["IMPS/P2A/301181472428/PRIYA NAIR/HDFC BANK", { key: "priya nair", name: "PRIYA NAIR" }],
    ["ACH D- BAJAJ FINANCE LTD-BFL0000000123456", { key: "bajaj finance ltd", name: "BAJAJ FINANCE LTD" }],
    ["ATM WDL-SBI ATM MG ROAD", null],
  ])("finds the counterparty of %s", (narration, expected) => {
    expect(counterpartyOf(narration)).toEqual(expected);
  });

  it("treats transfers to the holder or to another account of the journey as self transfers", () => {
    const savings = account([["2026-08-01 10:00", "DEBIT", 5000, 1000, "IMPS", "IMPS/P2A/123456789012/ASHA VERMA/SBI"]], { masked: "XXXXXX1111" });
    const current = account([["2026-08-02 10:00", "CREDIT", 2000, 9000, "NEFT", "NEFT-N1-TRANSFER FROM A/C XXXXXX1111-OWN"]], { masked: "XXXXXX2222", holder: "VERMA TRADERS" });
    const result = analyse([savings, current]);
    const names = Object.keys(result.completeCategoryWiseAnalysis.overallCategoryWiseAnalysis).sort();
    expect(names).toEqual(["Transfer from Self", "Transfer to Self"]);
    expect(result.overallAnalysis.totalNetCreditTransactionAmount).toBe(0);
  });
});

describe("invariants on a generated year", () => {
  const toAnalysis = (document: unknown, link: string): AnalysisAccount => {
    const parsed = accountFromRebit(document);
    return {
      linkReferenceNumber: link,
      fiType: parsed.fiType,
      maskedAccountNumber: parsed.maskedAccountNumber,
      balance: Number(parsed.balance),
      currency: parsed.currency,
      profile: parsed.profile as unknown as AnalysisAccount["profile"],
      summary: parsed.summary,
      transactions: parsed.transactions.map((t) => ({ ...t, amount: Number(t.amount), currentBalance: t.currentBalance === null ? null : Number(t.currentBalance) })),
    };
  };
  const accounts = [
    toAnalysis(savingsAccount({ seed: 11, asOf: "2026-10-31", months: 12, linkedAccRef: "s", maskedAccNumber: "XXXX4321" }), "s"),
    toAnalysis(currentAccount({ seed: 22, asOf: "2026-10-31", months: 12, linkedAccRef: "c", maskedAccNumber: "XXXX8765" }), "c"),
  ];
  const result = analyse(accounts);
  const all = accounts.flatMap((a) => a.transactions);
  const total = (type: string) => all.filter((t) => t.type === type).reduce((sum, t) => sum + t.amount, 0);
  const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(0.05);

  it("weekly credit and debit sums and counts equal the totals", () => {
    const weeks = result.overallAnalysis.weeklyAnalytics;
    close(weeks.reduce((s, w) => s + w.totalCreditAmount, 0), total("CREDIT"));
    close(weeks.reduce((s, w) => s + w.totalDebitAmount, 0), total("DEBIT"));
    expect(weeks.reduce((s, w) => s + w.totalCreditTxn + w.totalDebitTxn, 0)).toBe(all.length);
  });

  it("per-category totals sum to the totals", () => {
    const categories = Object.values(result.completeCategoryWiseAnalysis.overallCategoryWiseAnalysis) as Array<{ totalCreditAmount: number; totalDebitAmount: number; totalTransactions: number }>;
    close(categories.reduce((s, c) => s + c.totalCreditAmount, 0), total("CREDIT"));
    close(categories.reduce((s, c) => s + c.totalDebitAmount, 0), total("DEBIT"));
    expect(categories.reduce((s, c) => s + c.totalTransactions, 0)).toBe(all.length);
  });

  it("minimum EOD <= average of the last three months <= maximum balance", () => {
    const o = result.overallAnalysis;
    expect(o.minimumEodBalance).toBeLessThanOrEqual(o.averageBalanceLast3Months);
    expect(o.averageBalanceLast3Months).toBeLessThanOrEqual(o.maximumBalance);
  });

  it("fills every section with figures from the transactions", () => {
    expect(Object.keys(result)).toHaveLength(15);
    expect(result.accountProfiles).toHaveLength(2);
    expect(result.accountProfiles[0]?.summary).toMatchObject({ accountVintageInMonths: 124, transactionStartDate: expect.stringMatching(/^2025-11-/), transactionEndDate: expect.stringMatching(/^2026-10-/) });
    expect(Object.keys(result.accountWiseAnalysis)).toEqual(["s", "c"]);
    expect(result.top5FundTransfer.topCredits.length).toBeGreaterThan(0);
    expect(result.frequentCredits.counterparties.length).toBeGreaterThan(0);
    expect(result.frequentDebits.counterparties.length).toBeGreaterThan(0);
    expect(result.counterPartyAnalysis.totalCounterparties).toBeGreaterThan(10);
    expect(Object.keys(result.paymentTypeAnalytics)).toEqual(expect.arrayContaining(["UPI", "NEFT", "NACH", "CASH", "ATM"]));
    expect(result.investmentAnalysis.totalInvested).toBeGreaterThan(0);
    expect(result.nudges.items.map((n) => n.code)).toContain("SALARY_DETECTED");
    expect(result.bounceAnalysis.totalBounces).toBe(1);
  });
});
