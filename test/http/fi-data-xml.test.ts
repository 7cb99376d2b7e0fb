import { randomUUID } from "node:crypto";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../src/domain/demo/seed.ts";
import { accountFromRebit } from "../../src/serialization/rebit.ts";
import { parseRebitXml } from "../../src/serialization/xml.ts";
import { expectContract } from "../helpers/contract.ts";
import { createConsentWithLink, depositXml, ingest, SAMPLE_TRANSACTIONS } from "../helpers/rebit.ts";
import { DEMO_HEADERS, startTestService, type TestService } from "../helpers/service.ts";

const TRANSACTION_ELEMENTS = ["transactionTimestamp", "txnId", "type", "amount", "balance", "mode", "narration", "reference", "valueDate"];
// Every element read as text, nothing coerced to numbers, so values compare exactly.
const parser = new XMLParser({ parseTagValue: false, isArray: (name) => name === "transaction", ignoreDeclaration: false });

describe("Get FI Data XML (POST /xml/getfidata)", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ demo: true });
  });
  afterAll(() => service.close());

  const call = (body: unknown, headers: Record<string, string> = {}) =>
    service.app.inject({ method: "POST", url: "/xml/getfidata", headers: { ...DEMO_HEADERS, "content-type": "application/json", ...headers }, payload: JSON.stringify(body) });
  const json = (body: unknown) => service.app.inject({ method: "POST", url: "/getfidata", headers: { ...DEMO_HEADERS, "content-type": "application/json" }, payload: JSON.stringify(body) });

  it("answers a well-formed UTF-8 Response document with its declaration and every element", async () => {
    const response = await call({ consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.current });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(response.body.startsWith('<?xml version="1.0" encoding="UTF-8"?><Response><ver>1.21.0</ver><status>success</status><data>')).toBe(true);
    expect(XMLValidator.validate(response.body)).toBe(true);
    const document = parser.parse(response.body).Response;
    expect(Object.keys(document.data)).toEqual(["linkReferenceNumber", "maskedAccountNumber", "balance", "fipName", "fipId", "fiType", "fiData"]);
    for (const transaction of document.data.fiData.transaction) expect(Object.keys(transaction)).toEqual(TRANSACTION_ELEMENTS);
  });

  it("round-trips: our XML parsed back equals the JSON operation, field by field, for every demo account", async () => {
    for (const [consentID, link] of [
      [DEMO.consents.activePeriodic, DEMO.links.savings],
      [DEMO.consents.activePeriodic, DEMO.links.current],
      [DEMO.consents.activePeriodic, DEMO.links.termDeposit],
      [DEMO.consents.activeOnetime, DEMO.links.recurringDeposit],
      [DEMO.consents.activeOnetime, DEMO.links.fixedDepositHyphenated],
    ]) {
      const body = { consentID, linkReferenceNumber: link };
      const fromXml = parser.parse((await call(body)).body).Response.data;
      const fromJson = (await json(body)).json().data;
      const { fiData, ...account } = fromJson;
      expect({ ...fromXml, fiData: undefined }).toEqual({ ...account, fiData: undefined });
      const xmlRows = fromXml.fiData.transaction as Array<Record<string, string>>;
      expect(xmlRows).toHaveLength(fiData.length);
      xmlRows.forEach((row, index) => {
        const expected = fiData[index];
        expect(row).toEqual({
          transactionTimestamp: expected.transactionTimestamp,
          txnId: expected.txnId,
          type: expected.type,
          amount: expected.amount,
          balance: expected.currentBalance ?? "",
          mode: expected.mode,
          narration: expected.narration ?? "",
          reference: expected.reference ?? "",
          valueDate: expected.valueDate ?? "",
        });
      });
    }
  });

  it("escapes special characters, keeps non-ASCII text, and writes empty elements for what the FIP left out", async () => {
    const consentID = randomUUID();
    const link = randomUUID();
    await createConsentWithLink(service, { organisationId: DEMO.organisationId, consentID, link });
    const transactions = [...SAMPLE_TRANSACTIONS, { txnId: "T4<&>", type: "DEBIT", amount: "1", timestamp: "2026-10-30T10:00:00+05:30" }];
    expect((await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "F&B <1>", fipName: `Bank "A" & 'B'`, format: "xml", data: depositXml({ link, transactions }) }])).statusCode).toBe(201);
    const response = await call({ consentID, linkReferenceNumber: link });
    expect(XMLValidator.validate(response.body)).toBe(true);
    expect(response.body).toContain("<narration>NEFT-N1-ACME &amp; CO &lt;SALARY&gt;</narration>");
    expect(response.body).toContain("<narration>UPI/430912345678/&quot;Chai&quot; Point&apos;s/chai@okaxis/₹ चाय</narration>");
    expect(response.body).toContain("<txnId>T4&lt;&amp;&gt;</txnId><type>DEBIT</type><amount>1</amount><balance></balance><mode>OTHERS</mode><narration></narration><reference></reference><valueDate></valueDate>");
    expect(Buffer.from(response.rawPayload).toString("utf8")).toContain("₹ चाय");
    const parsed = parser.parse(response.body).Response.data.fiData.transaction;
    expect(parsed.find((t: { txnId: string }) => t.txnId === "T2").narration).toBe(`UPI/430912345678/"Chai" Point's/chai@okaxis/₹ चाय`);
  });

  it("answers the second form with Accept: application/json: the ReBIT Account document in xmlData", async () => {
    const body = { consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.termDeposit };
    const response = await call(body, { accept: "application/json" });
    expect(response.statusCode).toBe(200);
    const envelope = response.json();
    expectContract("fiu", "getFiDataXml", 200, envelope);
    expect(envelope).toMatchObject({ ver: "1.21.0", status: "success", data: [{ linkRefNumber: DEMO.links.termDeposit, maskedAccNumber: "XXXXXXXX0042", fipId: "DEMO-FIP", fipName: "Demo Bank" }] });
    const xmlData: string = envelope.data[0].xmlData;
    expect(xmlData).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Account xmlns="http:\/\/api.rebit.org.in\/FISchema\/term_deposit" linkedAccRef="[^"]+" maskedAccNumber="XXXXXXXX0042" version="1.1" type="term_deposit"><Profile><Holders type="SINGLE"><Holder /);
    // Our own ReBIT document is ingestible: parsing it gives back the account the JSON operation shows.
    const account = accountFromRebit(parseRebitXml(xmlData));
    const fromJson = (await json(body)).json().data;
    expect(account.balance).toBe(fromJson.balance);
    expect(account.profile.holders[0]).toMatchObject({ name: "Asha Verma", pan: "ABCPV1234K" });
    expect(account.transactions.map((t) => [t.txnId, t.type, t.amount, t.currentBalance]).reverse()).toEqual(
      fromJson.fiData.map((t: Record<string, string>) => [t.txnId, t.type, t.amount, t.currentBalance]),
    );
    expect(account.transactions.map((t) => t.sourceType)).toContain("OPENING");
  });

  it.each([
    [{ linkReferenceNumber: DEMO.links.savings }, 400, "InvalidRequest", "consentID is required"],
    [{ consentID: randomUUID(), linkReferenceNumber: DEMO.links.savings }, 400, "InvalidConsentId", "Consent ID does not exist"],
    [{ consentID: DEMO.consents.activePeriodic, linkReferenceNumber: randomUUID() }, 400, "InvalidLinkReference", "Link Reference Number does not exist"],
    [{ consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.recurringDeposit }, 400, "InvalidLinkReference", "Link Reference Number not associated with this consent"],
    [{ consentID: DEMO.consents.revoked, linkReferenceNumber: DEMO.links.revoked }, 400, "ConsentNotActive", "Consent is not in active state"],
    [{ consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.noDataYet }, 400, "DataNotAvailable", "Financial data not available"],
  ])("answers %j with the XML error document", async (body, status, errorCode, errorMsg) => {
    const response = await call(body);
    expect(response.statusCode).toBe(status);
    expect(response.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(XMLValidator.validate(response.body)).toBe(true);
    const document = parser.parse(response.body).Response;
    expect(Object.keys(document)).toEqual(["ver", "timestamp", "errorCode", "errorMsg", "status"]);
    expect(document).toMatchObject({ ver: "1.21.0", errorCode, errorMsg, status: "failure" });
  });

  it("answers 304 to a matching If-None-Match in both forms", async () => {
    const body = { consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.savings };
    const xml = await call(body);
    expect((await call(body, { "if-none-match": xml.headers.etag as string })).statusCode).toBe(304);
    const envelope = await call(body, { accept: "application/json" });
    expect(envelope.headers.etag).not.toBe(xml.headers.etag);
    expect((await call(body, { accept: "application/json", "if-none-match": envelope.headers.etag as string })).statusCode).toBe(304);
  });
});
