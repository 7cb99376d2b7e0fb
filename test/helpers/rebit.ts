import type { TestService } from "./service.ts";

export interface TxnFixture {
  txnId: string;
  type: string;
  mode?: string;
  amount: string;
  balance?: string;
  timestamp: string;
  valueDate?: string;
  narration?: string;
  reference?: string;
}

const attr = (name: string, value: string | undefined) =>
  value === undefined ? "" : ` ${name}="${value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;")}"`;

/** A ReBIT deposit Account document (XML), namespaced as FIPs send it. */
export function depositXml(options: { link: string; masked?: string; balance?: string; version?: string; transactions: TxnFixture[]; extraSummary?: string }) {
  const rows = options.transactions
    .map(
      (t) =>
        `<Transaction${attr("txnId", t.txnId)}${attr("type", t.type)}${attr("mode", t.mode)}${attr("amount", t.amount)}${attr("currentBalance", t.balance)}` +
        `${attr("transactionTimestamp", t.timestamp)}${attr("valueDate", t.valueDate)}${attr("narration", t.narration)}${attr("reference", t.reference)}/>`,
    )
    .join("\n    ");
  return `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<Account xmlns="http://api.rebit.org.in/FISchema/deposit" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  linkedAccRef="${options.link}" maskedAccNumber="${options.masked ?? "XXXXXX7788"}" version="${options.version ?? "1.1"}" type="deposit">
  <Profile><Holders type="SINGLE"><Holder name="Ravi &amp; Sons" dob="1985-02-11" mobile="9812345678" nominee="REGISTERED" email="ravi@example.in" pan="ABCDE1234F" ckycCompliance="true"/></Holders></Profile>
  <Summary currentBalance="${options.balance ?? "1500.50"}" currency="INR" balanceDateTime="2026-10-31T23:59:59+05:30" type="SAVINGS" branch="MG Road" ifscCode="DEMO0000001" micrCode="560000001" openingDate="2019-04-01" status="ACTIVE"${options.extraSummary ?? ""}>
    <Pending transactionType="DEBIT" amount="20.0"/>
  </Summary>
  <Transactions startDate="2026-10-01" endDate="2026-10-31">
    ${rows}
  </Transactions>
</Account>`;
}

/** The same document in its JSON form. */
export function depositJson(options: { link: string; masked?: string; balance?: string; version?: string; transactions: TxnFixture[] }) {
  return {
    Account: {
      linkedAccRef: options.link,
      maskedAccNumber: options.masked ?? "XXXXXX7788",
      version: options.version ?? "1.1",
      type: "deposit",
      Profile: { Holders: { type: "SINGLE", Holder: { name: "Ravi & Sons", dob: "1985-02-11", mobile: "9812345678", nominee: "REGISTERED", email: "ravi@example.in", pan: "ABCDE1234F", ckycCompliance: "true" } } },
      Summary: { currentBalance: options.balance ?? "1500.50", currency: "INR", balanceDateTime: "2026-10-31T23:59:59+05:30", type: "SAVINGS", branch: "MG Road", ifscCode: "DEMO0000001", micrCode: "560000001", openingDate: "2019-04-01", status: "ACTIVE", Pending: { transactionType: "DEBIT", amount: "20.0" } },
      Transactions: {
        startDate: "2026-10-01",
        endDate: "2026-10-31",
        Transaction: options.transactions.map((t) => ({
          txnId: t.txnId,
          type: t.type,
          ...(t.mode !== undefined ? { mode: t.mode } : {}),
          amount: t.amount,
          ...(t.balance !== undefined ? { currentBalance: t.balance } : {}),
          transactionTimestamp: t.timestamp,
          ...(t.valueDate !== undefined ? { valueDate: t.valueDate } : {}),
          ...(t.narration !== undefined ? { narration: t.narration } : {}),
          ...(t.reference !== undefined ? { reference: t.reference } : {}),
        })),
      },
    },
  };
}

export const SAMPLE_TRANSACTIONS: TxnFixture[] = [
  { txnId: "T1", type: "CREDIT", mode: "NEFT", amount: "1000.50", balance: "1000.50", timestamp: "2026-10-01T09:00:00+05:30", valueDate: "2026-10-01", narration: "NEFT-N1-ACME & CO <SALARY>", reference: "N1" },
  { txnId: "T2", type: "DEBIT", mode: "UPI", amount: "200.00", balance: "800.50", timestamp: "2026-10-05T12:30:00+05:30", valueDate: "2026-10-05", narration: `UPI/430912345678/"Chai" Point's/chai@okaxis/₹ चाय`, reference: "430912345678" },
  { txnId: "T3", type: "CREDIT", mode: "FT", amount: "700", balance: "1500.50", timestamp: "2026-10-20T18:45:10.250+05:30", valueDate: "2026-10-20", narration: "IMPS/P2A/5566/PRIYA", reference: "5566" },
];

export async function ingest(service: TestService, consentID: string, accounts: unknown[], extra: Record<string, unknown> = {}) {
  return service.admin("POST", "/admin/v1/fi-data", { consentID, accounts, ...extra });
}

export async function createConsentWithLink(service: TestService, options: { organisationId: string; consentID: string; link: string; type?: string; state?: string; fiType?: string }) {
  const consent = await service.admin("POST", "/admin/v1/consents", { consentID: options.consentID, organisationId: options.organisationId, type: options.type ?? "PERIODIC", state: options.state ?? "ACTIVE" });
  if (consent.statusCode !== 201) throw new Error(`consent: ${consent.body}`);
  const link = await service.admin("POST", `/admin/v1/consents/${options.consentID}/links`, {
    linkReferenceNumber: options.link,
    fipId: "TEST-FIP",
    fipName: "Test Bank",
    fiType: options.fiType ?? "DEPOSIT",
    maskedAccountNumber: "XXXXXX7788",
  });
  if (link.statusCode !== 201) throw new Error(`link: ${link.body}`);
}
