import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../src/domain/demo/seed.ts";
import { expectContract } from "../helpers/contract.ts";
import { createConsentWithLink, depositJson, ingest } from "../helpers/rebit.ts";
import { DEMO_HEADERS, startTestService, type TestService } from "../helpers/service.ts";

const PAGE_SIZE = 25;

describe("Get FI Data (POST /getfidata)", () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ demo: true, env: { FI_DATA_PAGE_SIZE: String(PAGE_SIZE) } });
  });
  afterAll(() => service.close());

  const call = (body: unknown, query = "", headers: Record<string, string> = DEMO_HEADERS) =>
    service.app.inject({ method: "POST", url: `/getfidata${query}`, headers: { ...headers, "content-type": "application/json" }, payload: JSON.stringify(body) });
  const savings = { consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.savings };

  it("answers the spec's body: ver 1.21.0, ISO timestamp, account fields, transactions newest first", async () => {
    const response = await call(savings);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    const body = response.json();
    expectContract("fiu", "getFiData", 200, body);
    expect(body).toMatchObject({ ver: "1.21.0", status: "success", data: { linkReferenceNumber: DEMO.links.savings, maskedAccountNumber: "XXXXXXXX4321", fipId: "DEMO-FIP", fipName: "Demo Bank", fiType: "DEPOSIT" } });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    expect(body.data.balance).toMatch(/^\d+\.\d{2}$/);
    const times = body.data.fiData.map((t: { transactionTimestamp: string }) => Date.parse(t.transactionTimestamp));
    expect(times.length).toBeGreaterThan(250);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(body.nextCursor).toBeUndefined();
    // The running balance chains: each balance is the previous one plus or minus the amount.
    const oldestFirst = [...body.data.fiData].reverse();
    for (let i = 1; i < oldestFirst.length; i++) {
      const { type, amount, currentBalance } = oldestFirst[i];
      const expected = Number(oldestFirst[i - 1].currentBalance) + (type === "CREDIT" ? 1 : -1) * Number(amount);
      expect(Number(currentBalance)).toBeCloseTo(expected, 2);
    }
    expect(oldestFirst.at(-1).currentBalance).toBe(body.data.balance);
  });

  it("serves the current account, term deposits in either spelling and recurring deposits", async () => {
    for (const [consentID, link, fiType] of [
      [DEMO.consents.activePeriodic, DEMO.links.current, "DEPOSIT"],
      [DEMO.consents.activePeriodic, DEMO.links.termDeposit, "TERM_DEPOSIT"],
      [DEMO.consents.activeOnetime, DEMO.links.fixedDepositHyphenated, "TERM-DEPOSIT"],
      [DEMO.consents.activeOnetime, DEMO.links.recurringDeposit, "RECURRING_DEPOSIT"],
    ] as const) {
      const response = await call({ consentID, linkReferenceNumber: link });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.fiType).toBe(fiType);
      expectContract("fiu", "getFiData", 200, response.json());
    }
  });

  const errorCases: Array<[string, unknown, Record<string, string> | undefined, number, string, string]> = [
    ["a missing consentID", { linkReferenceNumber: DEMO.links.savings }, undefined, 400, "InvalidRequest", "consentID is required"],
    ["a missing linkReferenceNumber", { consentID: DEMO.consents.activePeriodic }, undefined, 400, "InvalidRequest", "linkReferenceNumber is required"],
    ["an unknown consent", { consentID: randomUUID(), linkReferenceNumber: DEMO.links.savings }, undefined, 400, "InvalidConsentId", "Consent ID does not exist"],
    ["another organisation's consent", { consentID: DEMO.consents.otherOrganisation, linkReferenceNumber: DEMO.links.otherOrganisation }, undefined, 400, "InvalidConsentId", "Consent ID does not exist"],
    ["an unknown link", { consentID: DEMO.consents.activePeriodic, linkReferenceNumber: randomUUID() }, undefined, 400, "InvalidLinkReference", "Link Reference Number does not exist"],
    ["a link of another consent", { consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.recurringDeposit }, undefined, 400, "InvalidLinkReference", "Link Reference Number not associated with this consent"],
    ["another organisation's link", { consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.otherOrganisation }, undefined, 400, "InvalidLinkReference", "Link Reference Number does not exist"],
    ["a paused consent", { consentID: DEMO.consents.paused, linkReferenceNumber: DEMO.links.paused }, undefined, 400, "ConsentNotActive", "Consent is not in active state"],
    ["a revoked consent", { consentID: DEMO.consents.revoked, linkReferenceNumber: DEMO.links.revoked }, undefined, 400, "ConsentNotActive", "Consent is not in active state"],
    ["an expired consent", { consentID: DEMO.consents.expired, linkReferenceNumber: DEMO.links.expired }, undefined, 400, "ConsentNotActive", "Consent is not in active state"],
    ["a link without data yet", { consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.noDataYet }, undefined, 400, "DataNotAvailable", "Financial data not available"],
    ["wrong credentials", savings, { ...DEMO_HEADERS, client_secret: "nope-nope-nope" }, 401, "Unauthorized", "Invalid credentials"],
  ];

  it.each(errorCases)("answers %s with the spec's error row", async (_case, body, headers, status, errorCode, errorMsg) => {
    const response = await call(body, "", headers);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ ver: "1.21.0", timestamp: expect.any(String), errorCode, errorMsg, status: "failure" });
    expectContract("fiu", "getFiData", status, response.json());
  });

  it("lets the other organisation read its own consent", async () => {
    const response = await call({ consentID: DEMO.consents.otherOrganisation, linkReferenceNumber: DEMO.links.otherOrganisation }, "", {
      client_id: DEMO.other.clientId,
      client_secret: DEMO.other.clientSecret,
      organisationId: DEMO.other.organisationId,
      appIdentifier: DEMO.other.appIdentifier,
    });
    expect(response.statusCode).toBe(200);
  });

  describe("pagination", () => {
    async function walk(consentID: string, link: string, between?: (page: number) => Promise<void>) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let page = 0;
      do {
        const query = cursor ? `?limit=true&offset=true&cursor=${cursor}` : "?limit=true";
        const response = await call({ consentID, linkReferenceNumber: link }, query);
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json();
        expect(body.data.fiData.length).toBeLessThanOrEqual(PAGE_SIZE);
        seen.push(...body.data.fiData.map((t: { txnId: string }) => t.txnId));
        cursor = body.nextCursor;
        page++;
        if (between) await between(page);
      } while (cursor);
      return { seen, pages: page };
    }

    it("caps a page at FI_DATA_PAGE_SIZE and walks every transaction exactly once, in order", async () => {
      const all = (await call(savings)).json().data.fiData.map((t: { txnId: string }) => t.txnId);
      const first = (await call(savings, "?limit=true")).json();
      expect(first.data.fiData).toHaveLength(PAGE_SIZE);
      expect(first.nextCursor).toEqual(expect.any(String));
      const { seen, pages } = await walk(savings.consentID, savings.linkReferenceNumber);
      expect(seen).toEqual(all);
      expect(pages).toBe(Math.ceil(all.length / PAGE_SIZE));
    });

    it("walks exactly once while a refresh lands in the middle, on the data it started with", async () => {
      const consentID = randomUUID();
      const link = randomUUID();
      await createConsentWithLink(service, { organisationId: DEMO.organisationId, consentID, link });
      const statement = (tag: string, count: number) =>
        depositJson({ link, transactions: Array.from({ length: count }, (_, i) => ({ txnId: `${tag}${String(i).padStart(4, "0")}`, type: "CREDIT", mode: "UPI", amount: "1.00", balance: `${i + 1}.00`, timestamp: `2026-10-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00+05:30` })) });
      await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "json", data: statement("A", 110) }]);
      const { seen } = await walk(consentID, link, async (page) => {
        if (page === 2) await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "json", data: statement("B", 130) }]);
      });
      expect(seen).toHaveLength(110);
      expect(new Set(seen).size).toBe(110);
      expect(seen.every((id) => id.startsWith("A"))).toBe(true);
      // A new walk sees the refreshed data.
      expect((await walk(consentID, link)).seen.every((id) => id.startsWith("B"))).toBe(true);
    });

    it("tells a client whose cursor outlived two refreshes to start again", async () => {
      const consentID = randomUUID();
      const link = randomUUID();
      await createConsentWithLink(service, { organisationId: DEMO.organisationId, consentID, link });
      const statement = depositJson({ link, transactions: Array.from({ length: 60 }, (_, i) => ({ txnId: `X${i}`, type: "DEBIT", amount: "1", timestamp: `2026-09-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00Z` })) });
      const accounts = [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "json", data: statement }];
      await ingest(service, consentID, accounts);
      const cursor = (await call({ consentID, linkReferenceNumber: link }, "?limit=true")).json().nextCursor;
      await ingest(service, consentID, accounts);
      expect((await call({ consentID, linkReferenceNumber: link }, `?limit=true&offset=true&cursor=${cursor}`)).statusCode).toBe(200);
      await ingest(service, consentID, accounts);
      const expired = await call({ consentID, linkReferenceNumber: link }, `?limit=true&offset=true&cursor=${cursor}`);
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toMatchObject({ errorCode: "InvalidRequest", errorMsg: expect.stringMatching(/^cursor has expired/) });
    });

    it("refuses a cursor of another account, a forged cursor, and a cursor without limit and offset", async () => {
      const cursor = (await call(savings, "?limit=true")).json().nextCursor;
      const other = await call({ consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.current }, `?limit=true&offset=true&cursor=${cursor}`);
      expect(other.json()).toMatchObject({ errorCode: "InvalidRequest", errorMsg: "cursor is not valid; use the nextCursor of the previous page" });
      const forged = await call(savings, "?limit=true&offset=true&cursor=bm90LWEtY3Vyc29y");
      expect(forged.json()).toMatchObject({ errorCode: "InvalidRequest", errorMsg: "cursor is not valid; use the nextCursor of the previous page" });
      const alone = await call(savings, `?cursor=${cursor}`);
      expect(alone.json()).toMatchObject({ errorCode: "InvalidRequest", errorMsg: "cursor is used together with limit=true&offset=true" });
      const badFlag = await call(savings, "?limit=maybe");
      expect(badFlag.json()).toMatchObject({ errorCode: "InvalidRequest", errorMsg: "query parameter limit must be of type boolean" });
    });

    it("treats offset=true without a cursor as the first page", async () => {
      const first = (await call(savings, "?limit=true")).json();
      const withOffset = (await call(savings, "?limit=true&offset=true")).json();
      expect(withOffset.data.fiData).toEqual(first.data.fiData);
    });
  });

  describe("conditional requests", () => {
    it("answers 304 to a matching If-None-Match, and 200 with a new ETag once the data changed", async () => {
      const consentID = randomUUID();
      const link = randomUUID();
      await createConsentWithLink(service, { organisationId: DEMO.organisationId, consentID, link });
      const accounts = (amount: string) => [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "json", data: depositJson({ link, transactions: [{ txnId: "E1", type: "CREDIT", amount, timestamp: "2026-10-01T10:00:00Z" }] }) }];
      await ingest(service, consentID, accounts("1.00"));
      const first = await call({ consentID, linkReferenceNumber: link });
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+-json"$/);
      const again = await call({ consentID, linkReferenceNumber: link }, "", { ...DEMO_HEADERS, "if-none-match": etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe("");
      const page = await call({ consentID, linkReferenceNumber: link }, "?limit=true", { ...DEMO_HEADERS, "if-none-match": etag });
      expect(page.statusCode).toBe(200);
      await ingest(service, consentID, accounts("2.00"));
      const changed = await call({ consentID, linkReferenceNumber: link }, "", { ...DEMO_HEADERS, "if-none-match": etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
    });

    it("still checks the consent before answering 304", async () => {
      const etag = (await call(savings)).headers.etag as string;
      await service.admin("PATCH", `/admin/v1/consents/${DEMO.consents.activePeriodic}`, { state: "PAUSED" });
      try {
        const response = await call(savings, "", { ...DEMO_HEADERS, "if-none-match": etag });
        expect(response.statusCode).toBe(400);
        expect(response.json().errorCode).toBe("ConsentNotActive");
      } finally {
        await service.admin("PATCH", `/admin/v1/consents/${DEMO.consents.activePeriodic}`, { state: "ACTIVE" });
      }
    });
  });
});
