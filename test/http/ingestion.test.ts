import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startTestService, type TenantFixture, type TestService } from "../helpers/service.ts";
import { createConsentWithLink, depositJson, depositXml, ingest, SAMPLE_TRANSACTIONS } from "../helpers/rebit.ts";
import { expectContract } from "../helpers/contract.ts";

// A copy of ../shared/rebit/deposit/Deposit.xml: the suite must run from any clone.
const REBIT_SAMPLE = path.resolve(import.meta.dirname, "../fixtures/rebit/Deposit.xml");

describe("FI data ingestion (POST /admin/v1/fi-data)", () => {
  let service: TestService;
  let tenant: TenantFixture;

  beforeAll(async () => {
    service = await startTestService();
    tenant = await createTenant(service);
  });
  afterAll(() => service.close());

  async function newAccount(options: { type?: string; state?: string; fiType?: string } = {}) {
    const consentID = randomUUID();
    const link = randomUUID();
    await createConsentWithLink(service, { organisationId: tenant.organisationId, consentID, link, ...options });
    return { consentID, link };
  }

  const read = (consentID: string, link: string) =>
    service.app.inject({ method: "POST", url: "/getfidata", headers: tenant.headers, payload: { consentID, linkReferenceNumber: link } });

  it("stores a deposit account sent as XML and reads it back exactly", async () => {
    const { consentID, link } = await newAccount();
    const response = await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "TEST-FIP", fipName: "Test Bank", format: "xml", data: depositXml({ link, transactions: SAMPLE_TRANSACTIONS }) }], { journeyID: "jrn-xml-1" });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ journeyID: "jrn-xml-1", accounts: [{ linkReferenceNumber: link, transactions: 3 }] });
    expectContract("admin", "ingestFiData", 201, response.json());

    const data = (await read(consentID, link)).json().data;
    expect(data).toMatchObject({ linkReferenceNumber: link, maskedAccountNumber: "XXXXXX7788", balance: "1500.50", fipName: "Test Bank", fipId: "TEST-FIP", fiType: "DEPOSIT" });
    expect(data.fiData).toEqual([
      { transactionTimestamp: "2026-10-20T18:45:10.250+05:30", txnId: "T3", type: "CREDIT", amount: "700", currentBalance: "1500.50", mode: "IMPS", narration: "IMPS/P2A/5566/PRIYA", reference: "5566", valueDate: "2026-10-20" },
      { transactionTimestamp: "2026-10-05T12:30:00+05:30", txnId: "T2", type: "DEBIT", amount: "200.00", currentBalance: "800.50", mode: "UPI", narration: `UPI/430912345678/"Chai" Point's/chai@okaxis/₹ चाय`, reference: "430912345678", valueDate: "2026-10-05" },
      { transactionTimestamp: "2026-10-01T09:00:00+05:30", txnId: "T1", type: "CREDIT", amount: "1000.50", currentBalance: "1000.50", mode: "NEFT", narration: "NEFT-N1-ACME & CO <SALARY>", reference: "N1", valueDate: "2026-10-01" },
    ]);
  });

  it("reads back the same account identically whether it was sent as XML or as JSON", async () => {
    const viaXml = await newAccount();
    const viaJson = await newAccount();
    await ingest(service, viaXml.consentID, [{ linkReferenceNumber: viaXml.link, fipId: "TEST-FIP", fipName: "Test Bank", format: "xml", data: depositXml({ link: viaXml.link, transactions: SAMPLE_TRANSACTIONS }) }]);
    await ingest(service, viaJson.consentID, [{ linkReferenceNumber: viaJson.link, fipId: "TEST-FIP", fipName: "Test Bank", format: "json", data: depositJson({ link: viaJson.link, transactions: SAMPLE_TRANSACTIONS }) }]);
    const fromXml = (await read(viaXml.consentID, viaXml.link)).json().data;
    const fromJson = (await read(viaJson.consentID, viaJson.link)).json().data;
    expect({ ...fromJson, linkReferenceNumber: "" }).toEqual({ ...fromXml, linkReferenceNumber: "" });
  });

  it("maps term deposit transaction types explicitly and keeps the FIP's TERM-DEPOSIT spelling", async () => {
    const { consentID, link } = await newAccount({ fiType: "TERM-DEPOSIT" });
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Account xmlns="http://api.rebit.org.in/FISchema/term_deposit" linkedAccRef="${link}" maskedAccNumber="XXXX0042" version="1.1" type="term_deposit">
  <Profile><Holders type="JOINT"><Holder name="A" dob="1990-01-01" mobile="9000000000" nominee="NOT-REGISTERED"/><Holder name="B" dob="1991-01-01" mobile="9000000001" nominee="NOT-REGISTERED"/></Holders></Profile>
  <Summary openingDate="2026-01-01" accountType="FIXED" branch="X" ifsc="DEMO0000001" maturityAmount="110000.00" description="FD" interestPayout="OnMaturity" interestRate="7.1" maturityDate="2027-01-01" principalAmount="100000.00" tenureDays="0" tenureMonths="12" tenureYears="0" interestComputation="COMPOUND" compoundingFrequency="QUARTERLY" interestPeriodicPayoutAmount="0" interestOnMaturity="10000" currentValue="101675.00"/>
  <Transactions startDate="2026-01-01" endDate="2026-06-30">
    <Transaction txnId="F1" amount="100000.00" narration="FD OPENING" type="OPENING" mode="FT" balance="100000.00" transactionDateTime="2026-01-01T10:00:00+05:30" valueDate="2026-01-01" reference="R1"/>
    <Transaction txnId="F2" amount="1775.00" narration="FD INTEREST" type="INTEREST" mode="OTHERS" balance="101775.00" transactionDateTime="2026-03-31T10:00:00+05:30" valueDate="2026-03-31" reference="R2"/>
    <Transaction txnId="F3" amount="100.00" narration="TDS ON INTEREST" type="TDS" mode="OTHERS" balance="101675.00" transactionDateTime="2026-03-31T10:00:01+05:30" valueDate="2026-03-31" reference="R3"/>
  </Transactions>
</Account>`;
    const response = await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "TEST-FIP", fipName: "Test Bank", fiType: "TERM-DEPOSIT", format: "xml", data: xml }]);
    expect(response.statusCode).toBe(201);
    const data = (await read(consentID, link)).json().data;
    expect(data.fiType).toBe("TERM-DEPOSIT");
    expect(data.balance).toBe("101675.00");
    expect(data.fiData.map((t: { txnId: string; type: string; mode: string }) => [t.txnId, t.type, t.mode])).toEqual([
      ["F3", "DEBIT", "OTHERS"],
      ["F2", "CREDIT", "OTHERS"],
      ["F1", "CREDIT", "OTHERS"],
    ]);
  });

  it("takes recurring deposits as JSON, FI schema 2.x, and modes outside the 1.1 list", async () => {
    const { consentID, link } = await newAccount({ fiType: "RECURRING_DEPOSIT" });
    const document = {
      linkedAccRef: link,
      maskedAccNumber: "XXXX7310",
      version: "2.0.0",
      type: "recurring_deposit",
      Summary: { accountType: "RECURRING", openingDate: "2026-01-10", currentValue: "10075.50", principalAmount: "10000" },
      Transactions: {
        startDate: "2026-01-10",
        endDate: "2026-03-31",
        Transaction: [
          { txnId: "R1", amount: "5000", narration: "RD INSTALLMENT 1", type: "INSTALLMENT", mode: "NACH", balance: "5000", transactionDateTime: "2026-01-10T08:00:00+05:30", valueDate: "2026-01-10", reference: "I1" },
          { txnId: "R2", amount: "5000", narration: "RD INSTALLMENT 2", type: "INSTALLMENT", mode: "WIRE_TRANSFER", balance: "10000", transactionDateTime: "2026-02-10T08:00:00", valueDate: "2026-02-10", reference: "I2" },
          { txnId: "R3", amount: "75.50", narration: "RD INTEREST", type: "INTEREST", balance: "10075.50", transactionDateTime: "2026-03-31T08:00:00Z", reference: "I3" },
        ],
      },
    };
    const response = await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "TEST-FIP", fipName: "Test Bank", format: "json", data: document }]);
    expect(response.statusCode).toBe(201);
    const data = (await read(consentID, link)).json().data;
    expect(data.fiType).toBe("RECURRING_DEPOSIT");
    expect(data.fiData).toEqual([
      { transactionTimestamp: "2026-03-31T08:00:00Z", txnId: "R3", type: "CREDIT", amount: "75.50", currentBalance: "10075.50", mode: "INTEREST_CREDIT", narration: "RD INTEREST", reference: "I3" },
      { transactionTimestamp: "2026-02-10T08:00:00+05:30", txnId: "R2", type: "CREDIT", amount: "5000", currentBalance: "10000", mode: "OTHERS", narration: "RD INSTALLMENT 2", reference: "I2", valueDate: "2026-02-10" },
      { transactionTimestamp: "2026-01-10T08:00:00+05:30", txnId: "R1", type: "CREDIT", amount: "5000", currentBalance: "5000", mode: "NACH", narration: "RD INSTALLMENT 1", reference: "I1", valueDate: "2026-01-10" },
    ]);
  });

  it.each([
    ["not XML at all", "xml", "hello", /accounts\[0\]\.data: data is not an XML document/],
    ["malformed XML", "xml", "<Account><Summary></Account>", /not well-formed XML/],
    ["a DOCTYPE", "xml", '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]><Account/>', /must not contain a DOCTYPE/],
    ["another root element", "xml", "<Statement/>", /root element Account/],
    ["JSON that is not JSON", "json", "{nope", /data is not valid JSON/],
    ["an unknown account type", "json", { Account: { type: "mutual_funds", version: "1.1", maskedAccNumber: "X", Summary: {} } }, /Account\.type must be deposit, term_deposit or recurring_deposit/],
    ["an unsupported schema version", "json", { Account: { type: "deposit", version: "3.0", maskedAccNumber: "X", Summary: { currentBalance: "1" } } }, /Account\.version must be an FI schema version 1\.x or 2\.x/],
    ["no maskedAccNumber", "json", { Account: { type: "deposit", version: "1.1", Summary: { currentBalance: "1" } } }, /Account\.maskedAccNumber is required/],
    ["no Summary", "json", { Account: { type: "deposit", version: "1.1", maskedAccNumber: "X" } }, /Account\.Summary is required/],
    ["no currentBalance", "json", { Account: { type: "deposit", version: "1.1", maskedAccNumber: "X", Summary: {} } }, /Account\.Summary\.currentBalance is required/],
  ])("refuses %s, naming the problem, and stores nothing", async (_case, format, data, message) => {
    const { consentID, link } = await newAccount();
    const response = await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format, data }]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errorCode: "InvalidRequest", status: "failure" });
    expect(response.json().errorMsg).toMatch(message);
    expect((await read(consentID, link)).json().errorCode).toBe("DataNotAvailable");
  });

  it.each([
    ["a transaction without txnId", { txnId: undefined }, "Account.Transactions.Transaction[1].txnId is required"],
    ["an amount that is not a number", { amount: "12,3.4.5" }, "Account.Transactions.Transaction[1].amount must be a decimal number"],
    ["a negative amount", { amount: "-5.00" }, "Account.Transactions.Transaction[1].amount must not be negative"],
    ["a timestamp that is not a date", { timestamp: "2026-02-30T10:00:00Z" }, "Account.Transactions.Transaction[1].transactionTimestamp must be an ISO 8601 date-time"],
    ["a type outside CREDIT and DEBIT", { type: "REFUND" }, "Account.Transactions.Transaction[1].type must be CREDIT or DEBIT"],
    ["a bad value date", { valueDate: "05/10/2026" }, "Account.Transactions.Transaction[1].valueDate must be a date (YYYY-MM-DD)"],
  ])("refuses %s in XML with the attribute's path", async (_case, change, message) => {
    const { consentID, link } = await newAccount();
    const transactions = SAMPLE_TRANSACTIONS.map((t, index) => (index === 1 ? { ...t, ...change } : t)) as typeof SAMPLE_TRANSACTIONS;
    const response = await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "xml", data: depositXml({ link, transactions }) }]);
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMsg).toContain(message);
  });

  it("names the empty required attributes of the ReBIT sample document", async () => {
    const { consentID, link } = await newAccount();
    const sample = readFileSync(REBIT_SAMPLE, "utf8");
    const response = await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "xml", data: sample }]);
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMsg).toBe("accounts[0].data: Account.maskedAccNumber must not be empty");
    const repaired = sample.replace('maskedAccNumber=""', 'maskedAccNumber="XX99"').replace('currentBalance=""', 'currentBalance="20.0"').replace('txnId=""', 'txnId="S1"');
    const accepted = await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "xml", data: repaired }]);
    expect(accepted.statusCode).toBe(201);
  });

  it("refuses an unknown consent (404), a link not under the consent, and a consent that is not ACTIVE", async () => {
    const unknown = await ingest(service, randomUUID(), [{ linkReferenceNumber: randomUUID(), fipId: "F", fipName: "B", format: "json", data: {} }]);
    expect(unknown.statusCode).toBe(404);
    const { consentID } = await newAccount();
    const strange = randomUUID();
    const notLinked = await ingest(service, consentID, [{ linkReferenceNumber: strange, fipId: "F", fipName: "B", format: "json", data: {} }]);
    expect(notLinked.statusCode).toBe(400);
    expect(notLinked.json().errorMsg).toBe(`accounts[0].linkReferenceNumber ${strange} is not linked under consent ${consentID}`);
    const paused = await newAccount({ state: "PAUSED" });
    const refused = await ingest(service, paused.consentID, [{ linkReferenceNumber: paused.link, fipId: "F", fipName: "B", format: "json", data: depositJson({ link: paused.link, transactions: SAMPLE_TRANSACTIONS }) }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errorCode).toBe("ConsentNotActive");
  });

  it("stores nothing when one of several accounts is refused", async () => {
    const consentID = randomUUID();
    const [first, second] = [randomUUID(), randomUUID()];
    await createConsentWithLink(service, { organisationId: tenant.organisationId, consentID, link: first });
    await service.admin("POST", `/admin/v1/consents/${consentID}/links`, { linkReferenceNumber: second, fipId: "F", fipName: "B", fiType: "DEPOSIT", maskedAccountNumber: "X" });
    const response = await ingest(service, consentID, [
      { linkReferenceNumber: first, fipId: "F", fipName: "B", format: "json", data: depositJson({ link: first, transactions: SAMPLE_TRANSACTIONS }) },
      { linkReferenceNumber: second, fipId: "F", fipName: "B", format: "xml", data: "<broken" },
    ], { journeyID: "jrn-half" });
    expect(response.statusCode).toBe(400);
    expect(response.json().errorMsg).toMatch(/^accounts\[1\]\.data/);
    expect((await read(consentID, first)).json().errorCode).toBe("DataNotAvailable");
    expect(await service.ctx.db.query(`SELECT 1 FROM "Journey" WHERE id = 'jrn-half'`)).toHaveLength(0);
  });

  it("replaces a PERIODIC account's data on refresh, and refuses a refresh under ONETIME", async () => {
    const periodic = await newAccount();
    await ingest(service, periodic.consentID, [{ linkReferenceNumber: periodic.link, fipId: "F", fipName: "B", format: "json", data: depositJson({ link: periodic.link, transactions: SAMPLE_TRANSACTIONS.slice(0, 1), balance: "1000.50" }) }]);
    const refreshed = await ingest(service, periodic.consentID, [{ linkReferenceNumber: periodic.link, fipId: "F", fipName: "B", format: "json", data: depositJson({ link: periodic.link, transactions: SAMPLE_TRANSACTIONS }) }]);
    expect(refreshed.statusCode).toBe(201);
    const data = (await read(periodic.consentID, periodic.link)).json().data;
    expect(data.balance).toBe("1500.50");
    expect(data.fiData).toHaveLength(3);

    const onetime = await newAccount({ type: "ONETIME" });
    const body = [{ linkReferenceNumber: onetime.link, fipId: "F", fipName: "B", format: "json", data: depositJson({ link: onetime.link, transactions: SAMPLE_TRANSACTIONS }) }];
    expect((await ingest(service, onetime.consentID, body)).statusCode).toBe(201);
    const again = await ingest(service, onetime.consentID, body);
    expect(again.statusCode).toBe(409);
    expect(again.json().errorMsg).toMatch(/ONETIME/);
  });

  it("lets readers see the old data or the new during a refresh, never a mix", async () => {
    const { consentID, link } = await newAccount();
    const version = (tag: string, count: number) =>
      depositJson({
        link,
        balance: `${count}.00`,
        transactions: Array.from({ length: count }, (_, i) => ({ txnId: `${tag}-${i}`, type: "CREDIT", mode: "UPI", amount: "1.00", balance: `${i + 1}.00`, timestamp: `2026-10-01T10:${String(i % 60).padStart(2, "0")}:00+05:30`, narration: tag })),
      });
    await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "json", data: version("old", 300) }]);
    const reads = Array.from({ length: 12 }, () => read(consentID, link));
    const refresh = ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "json", data: version("new", 450) }]);
    const more = Array.from({ length: 12 }, () => read(consentID, link));
    expect((await refresh).statusCode).toBe(201);
    for (const response of await Promise.all([...reads, ...more])) {
      const data = response.json().data;
      const tags = new Set(data.fiData.map((t: { narration: string }) => t.narration));
      expect(tags.size).toBe(1);
      const tag = [...tags][0];
      expect(data.fiData).toHaveLength(tag === "old" ? 300 : 450);
      expect(data.balance).toBe(tag === "old" ? "300.00" : "450.00");
    }
  });

  it("takes two refreshes of one account at the same moment, one after the other", async () => {
    const { consentID, link } = await newAccount();
    const accounts = (balance: string) => [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "json", data: depositJson({ link, balance, transactions: SAMPLE_TRANSACTIONS }) }];
    await ingest(service, consentID, accounts("1.00"));
    const results = await Promise.all(["2.00", "3.00", "4.00"].map((balance) => ingest(service, consentID, accounts(balance))));
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const versions = await service.ctx.db.query<{ version: number }>(
      `SELECT s.version FROM "FiDataSnapshot" s JOIN "LinkedAccount" l ON l.id = s."linkedAccountId" WHERE l."linkReferenceNumber" = $1 ORDER BY s.version`,
      [link],
    );
    expect(versions.map((v) => v.version)).toEqual([3, 4]);
    expect(["2.00", "3.00", "4.00"]).toContain((await read(consentID, link)).json().data.balance);
  });

  it("refuses a journeyID that exists already", async () => {
    const { consentID, link } = await newAccount();
    const accounts = [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "json", data: depositJson({ link, transactions: SAMPLE_TRANSACTIONS }) }];
    expect((await ingest(service, consentID, accounts, { journeyID: "jrn-dup" })).statusCode).toBe(201);
    expect((await ingest(service, consentID, accounts, { journeyID: "jrn-dup" })).statusCode).toBe(409);
  });
});
