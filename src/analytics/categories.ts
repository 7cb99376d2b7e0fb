/**
 * The transaction taxonomy and its rules: data, read in order, first match wins. The order is
 * that of ANALYTICS.md: bounces, returns and reversals; charges and penalties; (self transfers,
 * decided by the engine from the journey's holders and accounts); loans and EMIs; salary;
 * definitive modes; merchant and purpose keywords; rail-based transfer buckets; Others.
 */

export type Side = "CREDIT" | "DEBIT";

export interface Category {
  code: string;
  name: string;
}

const C = (code: string, name: string): Category => ({ code, name });

/** Every category, by code. Credit-side and debit-side names are distinct. */
export const CATEGORIES = {
  // credits
  SALARY: C("SAL", "Salary"),
  PENSION: C("PEN", "Pension"),
  BONUS: C("BON", "Bonus"),
  INTEREST_RECEIVED: C("INTR", "Interest Received"),
  DIVIDEND: C("DIV", "Dividend"),
  CASH_DEPOSIT: C("CDEP", "Cash Deposit"),
  CHEQUE_DEPOSIT: C("CHQD", "Cheque Deposit"),
  LOAN_DISBURSAL: C("LOAND", "Loan Disbursal"),
  REFUND: C("RFND", "Refund"),
  REVERSAL: C("REV", "Reversal"),
  CASHBACK: C("CBK", "Cashback"),
  INVESTMENT_REDEMPTION: C("INVR", "Investment Redemption"),
  DEPOSIT_MATURITY: C("FDM", "FD/RD Maturity"),
  INSURANCE_RECEIPT: C("INSR", "Insurance Receipt"),
  TAX_REFUND: C("TAXR", "Tax Refund"),
  GOVERNMENT_BENEFIT: C("GOVT", "Government Benefit"),
  INWARD_REMITTANCE: C("REMI", "Inward Remittance"),
  MERCHANT_SETTLEMENT: C("SETL", "Card/Merchant Settlement"),
  RENTAL_INCOME: C("RENTI", "Rental Income"),
  TRANSFER_FROM_SELF: C("SELFI", "Transfer from Self"),
  TRANSFER_IN_UPI: C("UPII", "Transfer In (UPI)"),
  TRANSFER_IN_BANK: C("NEFTI", "Transfer In (NEFT/RTGS/IMPS)"),
  INWARD_CHEQUE_BOUNCE: C("ICB", "Inward Cheque Bounce"),
  ECS_BOUNCE: C("ECSB", "ECS/NACH Bounce"),
  OTHER_CREDIT: C("OTHC", "Other Credits"),
  // debits
  EMI: C("EMI", "EMI"),
  LOAN_REPAYMENT: C("LOANR", "Loan Repayment"),
  CREDIT_CARD: C("CCP", "Credit Card Payment"),
  BNPL: C("BNPL", "BNPL"),
  CASH_WITHDRAWAL: C("CWD", "Cash Withdrawal"),
  CHEQUE_ISSUED: C("CHQI", "Cheque Issued"),
  DEMAND_DRAFT: C("DD", "Demand Draft"),
  OUTWARD_CHEQUE_BOUNCE: C("OCB", "Outward Cheque Bounce"),
  CHEQUE_BOUNCE_CHARGES: C("CBC", "Cheque Bounce Charges"),
  ECS_BOUNCE_CHARGES: C("EBC", "ECS/NACH Bounce Charges"),
  MIN_BALANCE_PENALTY: C("MBP", "Minimum Balance Penalty"),
  BANK_CHARGES: C("BCHG", "Bank Charges"),
  INTEREST_CHARGED: C("INTC", "Interest Charged"),
  TAX_PAYMENT: C("TAXP", "Tax Payment"),
  UTILITIES: C("UTIL", "Utilities"),
  TELECOM: C("TEL", "Telecom & Internet"),
  RENT_PAID: C("RENTP", "Rent Paid"),
  INSURANCE_PREMIUM: C("INSP", "Insurance Premium"),
  MUTUAL_FUND: C("MF", "Mutual Fund/SIP"),
  STOCKS: C("STK", "Stocks/Trading"),
  DEPOSIT_BOOKING: C("FDB", "FD/RD Booking"),
  GOLD: C("GOLD", "Gold/Jewellery"),
  CRYPTO: C("CRYP", "Crypto"),
  FOOD: C("FOOD", "Food & Dining"),
  GROCERIES: C("GROC", "Groceries"),
  SHOPPING: C("SHOP", "Shopping"),
  FUEL: C("FUEL", "Fuel"),
  TRAVEL: C("TRVL", "Travel & Transport"),
  ENTERTAINMENT: C("ENT", "Entertainment"),
  MEDICAL: C("MED", "Medical"),
  EDUCATION: C("EDU", "Education"),
  WALLET: C("WLT", "Wallet Load"),
  GAMING: C("GAME", "Gaming/Betting"),
  ALCOHOL: C("ALC", "Alcohol"),
  SALARY_PAID: C("SALP", "Salary Paid"),
  DONATIONS: C("DON", "Donations"),
  OUTWARD_REMITTANCE: C("REMO", "Outward Remittance"),
  TRANSFER_TO_SELF: C("SELFO", "Transfer to Self"),
  UPI_MERCHANT: C("UPIM", "UPI Merchant Payment"),
  TRANSFER_OUT_UPI: C("UPIO", "Transfer Out (UPI)"),
  TRANSFER_OUT_BANK: C("NEFTO", "Transfer Out (NEFT/RTGS/IMPS)"),
  OTHER_DEBIT: C("OTHD", "Others"),
} as const satisfies Record<string, Category>;

export type CategoryKey = keyof typeof CATEGORIES;

export interface Rule {
  /** Which side the rule applies to. */
  side: Side | "ANY";
  /** Modes that decide on their own (no narration needed). */
  modes?: readonly string[];
  /** A pattern on the upper-cased narration. */
  pattern?: RegExp;
  /** Both modes and pattern must hold when both are given. */
  all?: boolean;
  credit?: CategoryKey;
  debit?: CategoryKey;
}

const NACH = ["NACH", "ECS", "AUTO_DEBIT"];
const BOUNCE = /\b(RETURN|RETURNED|RTN|BOUNCE|BOUNCED|DISHONOU?R|UNPAID)\b/;

/** Order matters: the first rule that matches decides. */
export const RULES: readonly Rule[] = [
  // Bounces, returns, reversals.
  { side: "CREDIT", pattern: /\b(ACH|NACH|ECS)\b.*\b(RETURN|RTN|BOUNCE|REV)/, credit: "ECS_BOUNCE" },
  { side: "CREDIT", modes: NACH, pattern: BOUNCE, all: true, credit: "ECS_BOUNCE" },
  { side: "CREDIT", pattern: /\b(CHQ|CHEQUE)\b.*\b(RETURN|RTN|BOUNCE|DISHONOU?R)/, credit: "INWARD_CHEQUE_BOUNCE" },
  { side: "DEBIT", pattern: /\b(CHQ|CHEQUE)\b.*\b(RETURN|RTN|BOUNCE|DISHONOU?R)\b(?!.*\b(CHG|CHGS|CHARGES?)\b)/, debit: "OUTWARD_CHEQUE_BOUNCE" },
  { side: "CREDIT", pattern: /\b(REVERSAL|REVERSED|REV)\b/, credit: "REVERSAL" },
  { side: "CREDIT", pattern: /\bREFUND\b(?!.*\bTAX\b)/, credit: "REFUND" },
  { side: "CREDIT", pattern: /\bCASH ?BACK\b/, credit: "CASHBACK" },
  // Charges and penalties.
  { side: "DEBIT", pattern: /\b(NACH|ECS|ACH)\b.*\b(RETURN|RTN|BOUNCE)\b.*\b(CHG|CHGS|CHARGES?)\b/, debit: "ECS_BOUNCE_CHARGES" },
  { side: "DEBIT", pattern: /\b(CHQ|CHEQUE)\b.*\b(RETURN|RTN|BOUNCE)\b.*\b(CHG|CHGS|CHARGES?)\b/, debit: "CHEQUE_BOUNCE_CHARGES" },
  { side: "DEBIT", pattern: /\b(MIN(IMUM)?\.? ?(AVG|AVERAGE)? ?BAL(ANCE)?|NON[- ]?MAINT(ENANCE)?|AMB|MAB)\b.*\b(CHG|CHGS|CHARGES?|PENALTY|FEE)\b|\bPENALTY\b/, debit: "MIN_BALANCE_PENALTY" },
  { side: "DEBIT", pattern: /\b(OD|OVERDRAFT|CC)\b.*\bINT(EREST)?\b|\bINT(EREST)? (CHARGED|DEBITED|ON OD)\b/, debit: "INTEREST_CHARGED" },
  { side: "DEBIT", pattern: /\b(CHARGES?|CHGS?|SMS ALERT|AMC|ANNUAL FEE|SERVICE FEE|MAINTENANCE CHARGES?|GST ON|DEBIT CARD FEE|CONSOLIDATED CHARGES)\b/, debit: "BANK_CHARGES" },
  // Loans and EMIs.
  { side: "CREDIT", pattern: /\bLOAN\b.*\b(DISB|DISBURSAL|DISBURSEMENT|DISBURSED|CREDIT)\b|\bDISBURSEMENT\b/, credit: "LOAN_DISBURSAL" },
  { side: "DEBIT", pattern: /\bEMI\b|\b(BAJAJ FIN(ANCE|SERV)?|HDFC ?EMI|HOME ?LOAN|CAR ?LOAN|PERSONAL ?LOAN|TATA CAPITAL|FULLERTON|MUTHOOT|MANAPPURAM|HOME CREDIT|CAPITAL FIRST|IDFC FIRST)\b/, debit: "EMI" },
  { side: "DEBIT", pattern: /\bLOAN\b.*\b(REPAY|REPAYMENT|PREPAY|FORECLOS|INSTAL)/, debit: "LOAN_REPAYMENT" },
  { side: "DEBIT", pattern: /\bCREDIT ?CARD\b|\bCC (PAYMENT|BILL|DUES)\b|\bCARD (DUES|BILL PAY)\b/, debit: "CREDIT_CARD" },
  { side: "DEBIT", pattern: /\b(SIMPL|LAZYPAY|ZESTMONEY|PAY ?LATER|BNPL|SLICE|UNI CARDS|KREDITBEE)\b/, debit: "BNPL" },
  // Salary and other income with a name.
  { side: "CREDIT", pattern: /\b(SALARY|SAL|PAYROLL|WAGES|STIPEND)\b/, credit: "SALARY" },
  { side: "DEBIT", pattern: /\b(SALARY|SAL|PAYROLL|WAGES)\b/, debit: "SALARY_PAID" },
  { side: "CREDIT", pattern: /\bPENSION\b/, credit: "PENSION" },
  { side: "CREDIT", pattern: /\b(BONUS|INCENTIVE)\b/, credit: "BONUS" },
  // Modes that decide by themselves.
  { side: "CREDIT", modes: ["INTEREST_CREDIT"], credit: "INTEREST_RECEIVED" },
  { side: "CREDIT", modes: ["CASH"], credit: "CASH_DEPOSIT" },
  { side: "DEBIT", modes: ["ATM", "CASH"], debit: "CASH_WITHDRAWAL" },
  { side: "CREDIT", modes: ["CHEQUE"], credit: "CHEQUE_DEPOSIT" },
  { side: "DEBIT", modes: ["CHEQUE"], debit: "CHEQUE_ISSUED" },
  { side: "DEBIT", modes: ["DEMAND_DRAFT"], debit: "DEMAND_DRAFT" },
  { side: "CREDIT", modes: ["REMITTANCE"], credit: "INWARD_REMITTANCE" },
  { side: "DEBIT", modes: ["REMITTANCE"], debit: "OUTWARD_REMITTANCE" },
  // Keywords of income.
  { side: "CREDIT", pattern: /\b(INT(EREST)?\.? ?(CREDIT|CR|PAID|EARNED)|SB INT|INTEREST)\b/, credit: "INTEREST_RECEIVED" },
  { side: "CREDIT", pattern: /\b(DIVIDEND|DIV)\b/, credit: "DIVIDEND" },
  { side: "CREDIT", pattern: /\b(TAX REFUND|IT REFUND|ITR REFUND|CBDT|INCOME TAX REFUND)\b|\bREFUND\b.*\bTAX\b/, credit: "TAX_REFUND" },
  { side: "CREDIT", pattern: /\b(DBT|PM ?KISAN|SUBSIDY|SCHOLARSHIP|GOVT|GOVERNMENT)\b/, credit: "GOVERNMENT_BENEFIT" },
  { side: "CREDIT", pattern: /\b(CLAIM|INSURANCE|LIC)\b/, credit: "INSURANCE_RECEIPT" },
  { side: "CREDIT", pattern: /\b(REDEMPTION|REDEEM|MF ?REDEMP|SWP)\b/, credit: "INVESTMENT_REDEMPTION" },
  { side: "CREDIT", pattern: /\b(FD|RD|TD|DEPOSIT)\b.*\b(MATURITY|CLOSURE|CLOSED|PREMAT)/, credit: "DEPOSIT_MATURITY" },
  { side: "CREDIT", pattern: /\b(INWARD REMIT|SWIFT|FOREIGN REMIT|WIRE)\b/, credit: "INWARD_REMITTANCE" },
  { side: "CREDIT", pattern: /\b(POS SETTLEMENT|MERCHANT SETTLEMENT|SETTLEMENT|MERCHANT SERVICES|RAZORPAY|PAYU|CASHFREE)\b/, credit: "MERCHANT_SETTLEMENT" },
  { side: "CREDIT", pattern: /\bRENT(AL)?\b/, credit: "RENTAL_INCOME" },
  { side: "CREDIT", pattern: /\b(CASH DEP(OSIT)?|CSH DEP|BY CASH)\b/, credit: "CASH_DEPOSIT" },
  { side: "CREDIT", pattern: /\b(CHQ DEP|CHEQUE DEP|CLG|CLEARING)\b/, credit: "CHEQUE_DEPOSIT" },
  // Keywords of spending.
  { side: "DEBIT", pattern: /\b(ATM WDL|ATM|CASH WDL|CASH WITHDRAWAL|NWD|CWDR)\b/, debit: "CASH_WITHDRAWAL" },
  { side: "DEBIT", pattern: /\b(CHQ PAID|CHEQUE PAID|CHQ NO)\b/, debit: "CHEQUE_ISSUED" },
  { side: "DEBIT", pattern: /\b(DD ISSUE|DEMAND DRAFT)\b/, debit: "DEMAND_DRAFT" },
  { side: "DEBIT", pattern: /\b(GST PAYMENT|GSTN|CPIN|INCOME TAX|ADVANCE TAX|TDS PAYMENT|CHALLAN|TIN NSDL|PROFESSIONAL TAX)\b/, debit: "TAX_PAYMENT" },
  { side: "DEBIT", pattern: /\b(ELECTRICITY|BESCOM|MSEDCL|MSEB|TATA POWER|ADANI ELEC|TORRENT POWER|BSES|WATER|GAS BILL|INDANE|BHARAT GAS|HP GAS|BILLDESK)\b/, debit: "UTILITIES" },
  { side: "DEBIT", pattern: /\b(AIRTEL|BHARTI AIRTEL|JIO|RELIANCE JIO|VODAFONE|VI|BSNL|BROADBAND|FIBERNET|HATHWAY|RECHARGE|DTH|TATA PLAY)\b/, debit: "TELECOM" },
  { side: "DEBIT", pattern: /\bRENT\b/, debit: "RENT_PAID" },
  { side: "DEBIT", pattern: /\b(LIC|INSURANCE|PREMIUM|POLICY)\b/, debit: "INSURANCE_PREMIUM" },
  { side: "DEBIT", pattern: /\b(SIP|MUTUAL FUND|MF|BSE LIMITED|BSE STAR|NSE CLEARING|CAMS|KFIN|KARVY|COIN BY ZERODHA|GROWW|KUVERA)\b/, debit: "MUTUAL_FUND" },
  { side: "DEBIT", pattern: /\b(ZERODHA|UPSTOX|ANGEL ONE|ANGEL BROKING|BROKING|SECURITIES|SHAREKHAN|5PAISA)\b/, debit: "STOCKS" },
  { side: "DEBIT", pattern: /\b(FD|RD|TD)\b.*\b(BOOK|OPENING|INSTAL|INSTALL?MENT)|\bTO (FD|RD)\b|\bRD INSTAL/, debit: "DEPOSIT_BOOKING" },
  { side: "DEBIT", pattern: /\b(GOLD|JEWEL|JEWELLERS|TANISHQ|KALYAN|MALABAR|AUGMONT|SAFEGOLD)\b/, debit: "GOLD" },
  { side: "DEBIT", pattern: /\b(WAZIRX|COINDCX|COINSWITCH|BINANCE|CRYPTO|ZEBPAY)\b/, debit: "CRYPTO" },
  { side: "DEBIT", pattern: /\b(SWIGGY|ZOMATO|RESTAURANT|CAFE|DOMINOS|MCDONALDS?|KFC|STARBUCKS|PIZZA|EATSURE|HALDIRAM)\b/, debit: "FOOD" },
  { side: "DEBIT", pattern: /\b(BIGBASKET|BIG BASKET|DMART|GROFERS|BLINKIT|ZEPTO|GROCERY|SUPERMARKET|MORE RETAIL|RELIANCE FRESH|JIOMART|NATURES BASKET|SPENCERS)\b/, debit: "GROCERIES" },
  { side: "DEBIT", pattern: /\b(AMAZON|FLIPKART|MYNTRA|AJIO|NYKAA|MEESHO|TATA CLIQ|SNAPDEAL|SHOPPERS STOP|LIFESTYLE|DECATHLON|IKEA)\b/, debit: "SHOPPING" },
  { side: "DEBIT", pattern: /\b(PETROL|FUEL|HPCL|BPCL|IOCL|INDIAN OIL|HP PAY|HPPAY|HP PETROL|SHELL|NAYARA)\b/, debit: "FUEL" },
  { side: "DEBIT", pattern: /\b(UBER|OLA|OLACABS|IRCTC|RAPIDO|MAKEMYTRIP|GOIBIBO|INDIGO|AIR INDIA|VISTARA|SPICEJET|REDBUS|METRO|FASTAG|YATRA|CLEARTRIP)\b/, debit: "TRAVEL" },
  { side: "DEBIT", pattern: /\b(NETFLIX|HOTSTAR|PRIME VIDEO|SPOTIFY|BOOKMYSHOW|PVR|INOX|SONYLIV|ZEE5|YOUTUBE)\b/, debit: "ENTERTAINMENT" },
  { side: "DEBIT", pattern: /\b(PHARMACY|APOLLO|HOSPITAL|MEDICAL|CLINIC|1MG|PHARMEASY|NETMEDS|DIAGNOSTIC|LAB|HEALTH)\b/, debit: "MEDICAL" },
  { side: "DEBIT", pattern: /\b(SCHOOL|COLLEGE|UNIVERSITY|TUITION|BYJUS?|UNACADEMY|VEDANTU|EDUCATION|EXAM FEE)\b/, debit: "EDUCATION" },
  { side: "DEBIT", pattern: /\b(WALLET|ADD MONEY|MOBIKWIK|PAYTM ADD|PHONEPE WALLET|AMAZON PAY BALANCE)\b/, debit: "WALLET" },
  { side: "DEBIT", pattern: /\b(DREAM11|MPL|RUMMY|POKER|BET|BETTING|CASINO|WINZO|MY11CIRCLE|JUNGLEE)\b/, debit: "GAMING" },
  { side: "DEBIT", pattern: /\b(WINE|WINES|LIQUOR|BEER|BAR|PUB|BREWERY)\b/, debit: "ALCOHOL" },
  { side: "DEBIT", pattern: /\b(DONATION|TRUST|TEMPLE|CHARITY|NGO|FOUNDATION|GIVEINDIA)\b/, debit: "DONATIONS" },
  { side: "DEBIT", pattern: /\b(OUTWARD REMIT|SWIFT|WIRE|FOREIGN REMIT|LRS)\b/, debit: "OUTWARD_REMITTANCE" },
  // Transfers by rail.
  { side: "DEBIT", modes: ["UPI"], pattern: /\/P2M\/|\/(PAYMENT|PAY|ORDER|BILL)$|\bMERCHANT\b/, all: true, debit: "UPI_MERCHANT" },
  { side: "ANY", modes: ["UPI"], credit: "TRANSFER_IN_UPI", debit: "TRANSFER_OUT_UPI" },
  { side: "ANY", pattern: /^UPI\b/, credit: "TRANSFER_IN_UPI", debit: "TRANSFER_OUT_UPI" },
  { side: "ANY", modes: ["NEFT", "RTGS", "IMPS"], credit: "TRANSFER_IN_BANK", debit: "TRANSFER_OUT_BANK" },
  { side: "ANY", pattern: /^(NEFT|RTGS|IMPS)\b|\b(NEFT|RTGS|IMPS)[-/ ]/, credit: "TRANSFER_IN_BANK", debit: "TRANSFER_OUT_BANK" },
  { side: "DEBIT", modes: NACH, debit: "LOAN_REPAYMENT" },
];

/** A category named by an override: its key in CATEGORIES, its code or its display name. */
export function findCategory(name: string): CategoryKey | undefined {
  const wanted = name.trim().toLowerCase();
  return (Object.keys(CATEGORIES) as CategoryKey[]).find(
    (key) => key.toLowerCase() === wanted || CATEGORIES[key].code.toLowerCase() === wanted || CATEGORIES[key].name.toLowerCase() === wanted,
  );
}

export interface Override {
  pattern: RegExp;
  category: CategoryKey;
  side: Side | "ANY";
}

/**
 * The rule table's category for a transaction: a configuration's overrides first, then RULES.
 * Pure in its inputs, so results are memoised per (side, mode, narration without digits): real
 * statements repeat the same texts with different references.
 */
export class Categoriser {
  readonly #overrides: readonly Override[];
  readonly #memo = new Map<string, CategoryKey>();

  constructor(overrides: readonly Override[] = []) {
    this.#overrides = overrides;
  }

  categorise(side: Side, mode: string, narration: string): CategoryKey {
    const key = `${side}|${mode}|${narration.replace(/\d+/g, "#")}`;
    let found = this.#memo.get(key);
    if (found === undefined) {
      found = this.#decide(side, mode, narration.toUpperCase());
      if (this.#memo.size < 100_000) this.#memo.set(key, found);
    }
    return found;
  }

  #decide(side: Side, mode: string, text: string): CategoryKey {
    for (const override of this.#overrides) {
      if ((override.side === "ANY" || override.side === side) && override.pattern.test(text)) return override.category;
    }
    for (const rule of RULES) {
      if (rule.side !== "ANY" && rule.side !== side) continue;
      const target = side === "CREDIT" ? rule.credit : rule.debit;
      if (!target) continue;
      const modeHolds = rule.modes ? rule.modes.includes(mode) : undefined;
      const patternHolds = rule.pattern ? rule.pattern.test(text) : undefined;
      const holds = rule.all ? modeHolds !== false && patternHolds !== false : modeHolds === true || patternHolds === true;
      if (holds) return target;
    }
    return side === "CREDIT" ? "OTHER_CREDIT" : "OTHER_DEBIT";
  }
}
