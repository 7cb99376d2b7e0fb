import { Random } from "./random.ts";

/**
 * Realistic ReBIT Account documents (JSON form) for demo data, the AA simulator and benchmarks:
 * a salaried savings account, a trading business's current account, a fixed deposit and a
 * recurring deposit. Deterministic for a given seed and "as of" date.
 */

type RebitNode = Record<string, unknown>;

interface Entry {
  day: string; // YYYY-MM-DD
  time: string; // HH:MM:SS (IST)
  type: string; // CREDIT / DEBIT, or a deposit transaction type
  credit: boolean;
  paise: number;
  mode: string;
  narration: string;
  reference: string;
}

export interface HolderDetails {
  name: string;
  dob: string;
  mobile: string;
  email: string;
  pan: string;
  address: string;
}

export interface StatementOptions {
  seed: number;
  /** The last day of data, YYYY-MM-DD. */
  asOf: string;
  months: number;
  linkedAccRef: string;
  maskedAccNumber: string;
  holder?: HolderDetails;
  /** Scales the number of everyday transactions (1 = realistic; benchmarks use more). */
  density?: number;
}

export const DEMO_HOLDER: HolderDetails = {
  name: "Asha Verma",
  dob: "1990-08-14",
  mobile: "9876543210",
  email: "asha.verma@example.in",
  pan: "ABCPV1234K",
  address: "12 Residency Road, Bengaluru 560025",
};

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

const MERCHANTS: ReadonlyArray<readonly [string, string, number, number]> = [
  ["SWIGGY", "swiggy@icici", 180, 950],
  ["ZOMATO", "zomato@hdfcbank", 220, 1100],
  ["BIGBASKET", "bigbasket@okaxis", 600, 3800],
  ["AMAZON PAY", "amazon@apl", 300, 6500],
  ["FLIPKART", "flipkart@axisbank", 400, 5200],
  ["UBER INDIA", "uber@axisbank", 120, 780],
  ["OLA CABS", "olacabs@ybl", 110, 650],
  ["DMART AVENUE", "dmart@ybl", 900, 4200],
  ["HP PETROL PUMP", "hppay@icici", 500, 3000],
  ["APOLLO PHARMACY", "apollopharmacy@hdfcbank", 150, 2200],
  ["BOOKMYSHOW", "bookmyshow@kotak", 300, 1400],
  ["IRCTC", "irctc@sbi", 450, 3900],
];

const FRIENDS = ["PRIYA NAIR", "KARAN MEHTA", "ROHIT SINGH", "NEHA IYER", "ARJUN RAO"];
const CUSTOMERS = ["SHREE GANESH STORES", "KAVERI ENTERPRISES", "BALAJI TRADING CO", "NAVYA RETAIL LLP", "SUNRISE MART", "GREENLEAF FOODS PVT LTD"];
const SUPPLIERS = ["HINDUSTAN DISTRIBUTORS", "METRO WHOLESALE", "AGARWAL PACKAGING", "DELTA LOGISTICS"];

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

function ymd(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function rupeesText(paise: number): string {
  const sign = paise < 0 ? "-" : "";
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${pad(abs % 100)}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The calendar months covered, oldest first, ending with the month of asOf. */
function monthsEnding(asOf: string, count: number): Array<{ year: number; month: number; lastDay: number }> {
  const end = new Date(`${asOf}T00:00:00Z`);
  const out = [];
  for (let i = count - 1; i >= 0; i--) {
    const first = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - i, 1));
    const year = first.getUTCFullYear();
    const month = first.getUTCMonth();
    const lastDay = i === 0 ? end.getUTCDate() : daysInMonth(year, month);
    out.push({ year, month, lastDay });
  }
  return out;
}

class Ledger {
  readonly entries: Entry[] = [];
  readonly random: Random;
  readonly #asOf: string;
  readonly #start: string;

  constructor(random: Random, start: string, asOf: string) {
    this.random = random;
    this.#start = start;
    this.#asOf = asOf;
  }

  add(year: number, month: number, dayOfMonth: number, credit: boolean, paise: number, mode: string, narration: string, reference: string, type?: string, at?: string) {
    const day = ymd(new Date(Date.UTC(year, month, Math.min(dayOfMonth, daysInMonth(year, month)))));
    if (day > this.#asOf || day < this.#start || paise <= 0) return;
    const time = at ?? `${pad(this.random.int(7, 21))}:${pad(this.random.int(0, 59))}:${pad(this.random.int(0, 59))}`;
    this.entries.push({ day, time, type: type ?? (credit ? "CREDIT" : "DEBIT"), credit, paise, mode, narration, reference });
  }

  rrn(): string {
    return this.random.digits(12);
  }
}

function transactionsOf(ledger: Ledger, openingPaise: number, txnPrefix: string, depositStyle: boolean) {
  const sorted = [...ledger.entries].sort((a, b) => (a.day + a.time).localeCompare(b.day + b.time));
  let balance = openingPaise;
  const transactions = sorted.map((entry, index) => {
    balance += entry.credit ? entry.paise : -entry.paise;
    const timestamp = `${entry.day}T${entry.time}+05:30`;
    const common = {
      txnId: `${txnPrefix}${String(index + 1).padStart(6, "0")}`,
      type: entry.type,
      mode: entry.mode,
      amount: rupeesText(entry.paise),
      valueDate: entry.day,
      narration: entry.narration,
      reference: entry.reference,
    };
    return depositStyle
      ? { ...common, balance: rupeesText(balance), transactionDateTime: timestamp }
      : { ...common, currentBalance: rupeesText(balance), transactionTimestamp: timestamp };
  });
  return { transactions, closingPaise: balance, first: sorted[0]?.day, last: sorted.at(-1)?.day };
}

function holderNode(holder: HolderDetails, nominee = "REGISTERED") {
  return { name: holder.name, dob: holder.dob, mobile: holder.mobile, nominee, email: holder.email, pan: holder.pan, address: holder.address, ckycCompliance: "true" };
}

function startOf(asOf: string, months: number): string {
  const first = monthsEnding(asOf, months)[0] as { year: number; month: number };
  return `${first.year}-${pad(first.month + 1)}-01`;
}

function salariedEvents(ledger: Ledger, asOf: string, months: number, density: number) {
  const r = ledger.random;
  monthsEnding(asOf, months).forEach(({ year, month, lastDay }, index) => {
    const mon = MONTHS[month] as string;
    const salary = index < months / 2 ? 8500000 : 9200000;
    const utr = `CITIN${year}${pad(month + 1)}01${r.digits(6)}`;
    ledger.add(year, month, 1, true, salary, "NEFT", `NEFT-${utr}-ACME TECHNOLOGIES PVT LTD-SALARY ${mon} ${year}`, utr);
    const rentRrn = ledger.rrn();
    ledger.add(year, month, 3, false, 2200000, "UPI", `UPI/${rentRrn}/RAJESH SHARMA/rajesh.sharma@okhdfcbank/Rent ${mon}`, rentRrn);
    const emiRef = "BFL0000000123456";
    ledger.add(year, month, 5, false, 1245000, "NACH", `ACH D- BAJAJ FINANCE LTD-${emiRef}`, emiRef, undefined, "06:05:00");
    if (index === months - 4) {
      // The month's EMI bounced: the debit is returned, charged for, and presented again.
      ledger.add(year, month, 5, true, 1245000, "NACH", `ACH D- RETURN-BAJAJ FINANCE LTD-${emiRef}-INSUFFICIENT FUNDS`, emiRef, undefined, "22:40:00");
      ledger.add(year, month, 6, false, 59000, "OTHERS", "NACH RETURN CHARGES INCL GST", `CHG${r.digits(8)}`);
      ledger.add(year, month, 12, false, 1245000, "NACH", `ACH D- BAJAJ FINANCE LTD-${emiRef}-REPRESENTED`, emiRef);
    }
    ledger.add(year, month, 10, false, 500000, "NACH", "ACH D- BSE LIMITED-SIP HDFC FLEXI CAP FUND", `SIP${r.digits(10)}`);
    ledger.add(year, month, 15, false, r.rupees(6000, 24000, 1), "OTHERS", "IB BILLPAY DR-HDFC CREDIT CARD-XXXX1234", `BBPS${r.digits(10)}`);
    const billRrn = ledger.rrn();
    ledger.add(year, month, 18, false, r.rupees(900, 2600), "UPI", `UPI/${billRrn}/BESCOM/bescom@billdesk/Electricity bill`, billRrn);
    const mobileRrn = ledger.rrn();
    ledger.add(year, month, 20, false, 59900, "UPI", `UPI/${mobileRrn}/BHARTI AIRTEL/airtel@upi/Recharge`, mobileRrn);
    if (month === 2) ledger.add(year, month, 25, false, 2400000, "NACH", "ACH D- LIC OF INDIA-PREMIUM POLICY 512345678", `LIC${r.digits(9)}`);
    const purchases = Math.round(r.int(10, 16) * density);
    for (let i = 0; i < purchases; i++) {
      const [name, vpa, min, max] = r.pick(MERCHANTS);
      const rrn = ledger.rrn();
      ledger.add(year, month, r.int(1, lastDay), false, r.rupees(min, max), "UPI", `UPI/${rrn}/${name}/${vpa}/Payment`, rrn);
    }
    for (let i = 0; i < Math.round(r.int(1, 3) * density); i++) {
      const friend = r.pick(FRIENDS);
      const rrn = ledger.rrn();
      ledger.add(year, month, r.int(1, lastDay), false, r.rupees(200, 3000, 50), "UPI", `UPI/${rrn}/${friend}/${friend.split(" ")[0]?.toLowerCase()}@oksbi/Sent`, rrn);
    }
    if (r.chance(0.6)) {
      const friend = r.pick(FRIENDS);
      const rrn = ledger.rrn();
      ledger.add(year, month, r.int(1, lastDay), true, r.rupees(500, 4000, 50), "IMPS", `IMPS/P2A/${rrn}/${friend}/HDFC BANK`, rrn);
    }
    for (let i = 0; i < r.int(1, 2); i++) {
      ledger.add(year, month, r.int(2, lastDay), false, r.rupees(2000, 10000, 500), "ATM", "ATM WDL-SBI ATM MG ROAD BENGALURU-XXXX5678", `ATM${r.digits(8)}`);
    }
    if (index % 3 === 1) {
      ledger.add(year, month, r.int(8, 25), true, r.rupees(5000, 20000, 1000), "CASH", "CASH DEPOSIT-SELF-KORAMANGALA BRANCH", `CSH${r.digits(8)}`);
    }
    if (r.chance(0.3)) {
      const rrn = ledger.rrn();
      ledger.add(year, month, r.int(1, lastDay), true, r.rupees(300, 2500), "UPI", `UPI/${rrn}/AMAZON PAY REFUND/amazon@apl/Refund`, rrn);
    }
    if (index === 2) ledger.add(year, month, 22, true, 1500000, "CHEQUE", "CHQ DEP-CLG-000123-HDFC BANK-KAVERI ENTERPRISES", "000123");
    if (index === 6) ledger.add(year, month, 9, false, 3500000, "CHEQUE", "CHQ PAID-000045-ANAND FURNITURE", "000045");
    if ([2, 5, 8, 11].includes(month)) {
      ledger.add(year, month, lastDay, true, r.rupees(900, 1800), "INTEREST_CREDIT", "SB INTEREST CREDIT", `INT${year}${pad(month + 1)}`);
      ledger.add(year, month, lastDay, false, 1770, "OTHERS", "SMS ALERT CHARGES QTR", `SMS${year}${pad(month + 1)}`);
    }
  });
}

function businessEvents(ledger: Ledger, asOf: string, months: number, density: number) {
  const r = ledger.random;
  monthsEnding(asOf, months).forEach(({ year, month, lastDay }) => {
    for (const staff of ["RAVI KUMAR", "SUNITA DEVI", "MOHAN DAS"]) {
      const utr = `HDFCN${year}${pad(month + 1)}${r.digits(8)}`;
      ledger.add(year, month, 1, false, r.rupees(18000, 26000, 500), "NEFT", `NEFT-${utr}-${staff}-SALARY ${MONTHS[month]}`, utr);
    }
    for (let i = 0; i < Math.round(r.int(14, 22) * density); i++) {
      const customer = r.pick(CUSTOMERS);
      const paise = r.rupees(8000, 320000, 10);
      const rail = paise >= 20000000 ? "RTGS" : r.pick(["NEFT", "IMPS", "UPI"] as const);
      const ref = rail === "UPI" || rail === "IMPS" ? ledger.rrn() : `${rail === "RTGS" ? "UTIBR" : "SBIN"}${year}${r.digits(10)}`;
      const narration =
        rail === "UPI"
          ? `UPI/${ref}/${customer}/${customer.split(" ")[0]?.toLowerCase()}@okicici/Invoice`
          : rail === "IMPS"
            ? `IMPS/P2A/${ref}/${customer}/ICICI BANK`
            : `${rail}-${ref}-${customer}-INV${r.digits(5)}`;
      ledger.add(year, month, r.int(1, lastDay), true, paise, rail, narration, ref);
    }
    for (let i = 0; i < Math.round(r.int(7, 11) * density); i++) {
      const supplier = r.pick(SUPPLIERS);
      const paise = r.rupees(15000, 260000, 10);
      const rail = paise >= 20000000 ? "RTGS" : "NEFT";
      const utr = `HDFC${rail === "RTGS" ? "R" : "N"}${year}${r.digits(10)}`;
      ledger.add(year, month, r.int(1, lastDay), false, paise, rail, `${rail}-${utr}-${supplier}-PAYMENT`, utr);
    }
    for (const week of [6, 13, 20, 27]) {
      ledger.add(year, month, week, true, r.rupees(15000, 60000, 500), "CASH", "CASH DEPOSIT-BY SELF-JAYANAGAR BRANCH", `CSH${r.digits(8)}`);
    }
    ledger.add(year, month, r.int(2, 6), true, r.rupees(30000, 140000), "CARD", `POS SETTLEMENT-HDFC MERCHANT SERVICES-MID${r.digits(8)}`, `MID${r.digits(10)}`);
    ledger.add(year, month, 20, false, r.rupees(25000, 90000), "OTHERS", `GST PAYMENT-GSTN-CPIN${r.digits(14)}`, `CPIN${r.digits(10)}`);
    ledger.add(year, month, 7, false, 4500000, "NEFT", `NEFT-HDFCN${year}${r.digits(8)}-LAKSHMI PROPERTIES-SHOP RENT`, `RENT${r.digits(6)}`);
    const billRrn = ledger.rrn();
    ledger.add(year, month, 16, false, r.rupees(4000, 9000), "UPI", `UPI/${billRrn}/BESCOM/bescom@billdesk/Shop electricity`, billRrn);
    ledger.add(year, month, lastDay, false, 59000, "OTHERS", "CA MAINTENANCE CHARGES INCL GST", `CHG${year}${pad(month + 1)}`);
  });
}

function depositAccount(options: StatementOptions, kind: "SAVINGS" | "CURRENT"): RebitNode {
  const random = new Random(options.seed);
  const months = options.months;
  const start = startOf(options.asOf, months);
  const ledger = new Ledger(random, start, options.asOf);
  const density = options.density ?? 1;
  if (kind === "SAVINGS") salariedEvents(ledger, options.asOf, months, density);
  else businessEvents(ledger, options.asOf, months, density);
  const opening = kind === "SAVINGS" ? 4825050 : 38450000;
  const { transactions, closingPaise } = transactionsOf(ledger, opening, kind === "SAVINGS" ? "S" : "C", false);
  const holder = options.holder ?? DEMO_HOLDER;
  return {
    Account: {
      type: "deposit",
      version: "1.1",
      maskedAccNumber: options.maskedAccNumber,
      linkedAccRef: options.linkedAccRef,
      Profile: {
        Holders: {
          type: "SINGLE",
          Holder: [kind === "SAVINGS" ? holderNode(holder) : { ...holderNode(holder), name: "VERMA TRADERS" }],
        },
      },
      Summary: {
        currentBalance: rupeesText(closingPaise),
        currency: "INR",
        exchgeRate: "",
        balanceDateTime: `${options.asOf}T23:59:59+05:30`,
        type: kind,
        branch: kind === "SAVINGS" ? "Koramangala, Bengaluru" : "Jayanagar, Bengaluru",
        facility: kind === "CURRENT" ? "OD" : "",
        ifscCode: kind === "SAVINGS" ? "DEMO0001234" : "DEMO0005678",
        micrCode: kind === "SAVINGS" ? "560002123" : "560002456",
        openingDate: kind === "SAVINGS" ? "2016-06-20" : "2019-01-15",
        currentODLimit: kind === "CURRENT" ? "500000.00" : "0",
        drawingLimit: kind === "CURRENT" ? "500000.00" : "0",
        status: "ACTIVE",
        Pending: [{ transactionType: "DEBIT", amount: "0.00" }],
      },
      Transactions: { startDate: start, endDate: options.asOf, Transaction: transactions },
    },
  };
}

export function savingsAccount(options: StatementOptions): RebitNode {
  return depositAccount(options, "SAVINGS");
}

export function currentAccount(options: StatementOptions): RebitNode {
  return depositAccount(options, "CURRENT");
}

/** A fixed deposit: the opening deposit, quarterly interest, and TDS at each financial year end. */
export function termDeposit(options: StatementOptions & { principalRupees?: number; ratePercent?: number }): RebitNode {
  const random = new Random(options.seed);
  const start = startOf(options.asOf, options.months);
  const ledger = new Ledger(random, start, options.asOf);
  const principal = (options.principalRupees ?? 200000) * 100;
  const rate = options.ratePercent ?? 7.1;
  let value = principal;
  ledger.add(Number(start.slice(0, 4)), Number(start.slice(5, 7)) - 1, 1, true, principal, "FT", "FD OPENING-TRANSFER FROM SB XXXX4321", `FDO${random.digits(8)}`, "OPENING");
  monthsEnding(options.asOf, options.months).forEach(({ year, month, lastDay }, index) => {
    if (index % 3 === 2) {
      const interest = Math.round((value * rate) / 400);
      value += interest;
      ledger.add(year, month, lastDay, true, interest, "OTHERS", "FD INTEREST CREDIT", `FDI${year}${pad(month + 1)}`, "INTEREST");
      if (month === 2) {
        const tds = Math.round(interest * 0.1);
        value -= tds;
        ledger.add(year, month, lastDay, false, tds, "OTHERS", "TDS ON FD INTEREST", `TDS${year}`, "TDS");
      }
    }
  });
  const { transactions, closingPaise } = transactionsOf(ledger, 0, "F", true);
  const holder = options.holder ?? DEMO_HOLDER;
  const maturity = Math.round(principal * (1 + rate / 100) ** 3);
  return {
    Account: {
      type: "term_deposit",
      version: "1.1",
      maskedAccNumber: options.maskedAccNumber,
      linkedAccRef: options.linkedAccRef,
      Profile: { Holders: { type: "SINGLE", Holder: [holderNode(holder)] } },
      Summary: {
        openingDate: start,
        accountType: "FIXED",
        branch: "Koramangala, Bengaluru",
        ifsc: "DEMO0001234",
        maturityAmount: rupeesText(maturity),
        maturityDate: `${Number(start.slice(0, 4)) + 3}${start.slice(4)}`,
        description: "Fixed deposit, 3 years, quarterly compounding",
        interestPayout: "OnMaturity",
        interestRate: String(rate),
        principalAmount: rupeesText(principal),
        tenureDays: "0",
        tenureMonths: "0",
        tenureYears: "3",
        interestComputation: "COMPOUND",
        compoundingFrequency: "QUARTERLY",
        interestPeriodicPayoutAmount: "0",
        interestOnMaturity: rupeesText(maturity - principal),
        currentValue: rupeesText(closingPaise),
      },
      Transactions: { startDate: start, endDate: options.asOf, Transaction: transactions },
    },
  };
}

/** A recurring deposit: a monthly instalment and quarterly interest. */
export function recurringDeposit(options: StatementOptions & { instalmentRupees?: number; ratePercent?: number }): RebitNode {
  const random = new Random(options.seed);
  const start = startOf(options.asOf, options.months);
  const ledger = new Ledger(random, start, options.asOf);
  const instalment = (options.instalmentRupees ?? 5000) * 100;
  const rate = options.ratePercent ?? 6.8;
  let value = 0;
  monthsEnding(options.asOf, options.months).forEach(({ year, month, lastDay }, index) => {
    value += instalment;
    ledger.add(year, month, 10, true, instalment, "FT", `RD INSTALLMENT ${index + 1}-AUTO TRANSFER FROM SB XXXX4321`, `RDI${year}${pad(month + 1)}`, "INSTALLMENT");
    if (index % 3 === 2) {
      const interest = Math.round((value * rate) / 400);
      value += interest;
      ledger.add(year, month, lastDay, true, interest, "OTHERS", "RD INTEREST CREDIT", `RDN${year}${pad(month + 1)}`, "INTEREST");
    }
  });
  const { transactions, closingPaise } = transactionsOf(ledger, 0, "R", true);
  const holder = options.holder ?? DEMO_HOLDER;
  return {
    Account: {
      type: "recurring_deposit",
      version: "1.1",
      maskedAccNumber: options.maskedAccNumber,
      linkedAccRef: options.linkedAccRef,
      Profile: { Holders: { type: "SINGLE", Holder: [holderNode(holder)] } },
      Summary: {
        accountType: "RECURRING",
        openingDate: start,
        branch: "Koramangala, Bengaluru",
        ifsc: "DEMO0001234",
        maturityAmount: rupeesText(instalment * 24 + 1000000),
        maturityDate: `${Number(start.slice(0, 4)) + 2}${start.slice(4)}`,
        description: "Recurring deposit, 24 monthly instalments",
        interestPayout: "OnMaturity",
        interestRate: String(rate),
        principalAmount: rupeesText(instalment * 24),
        tenureDays: "0",
        tenureMonths: "24",
        tenureYears: "0",
        recurringAmount: rupeesText(instalment),
        recurringDepositDay: "10",
        interestComputation: "COMPOUND",
        compoundingFrequency: "QUARTERLY",
        interestPeriodicPayoutAmount: "0",
        interestOnMaturity: "0",
        currentValue: rupeesText(closingPaise),
      },
      Transactions: { startDate: start, endDate: options.asOf, Transaction: transactions },
    },
  };
}
