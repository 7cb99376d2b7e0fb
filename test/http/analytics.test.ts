import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../src/domain/demo/seed.ts";
import { savingsAccount } from "../../src/domain/demo/statements.ts";
import { expectContract } from "../helpers/contract.ts";
import { createConsentWithLink, ingest } from "../helpers/rebit.ts";
import { DEMO_HEADERS, startTestService, type TestService } from "../helpers/service.ts";

const SECTIONS = [
  "overallAnalysis", "completeCategoryWiseAnalysis", "accountProfiles", "fcuIndicators", "bounceAnalysis", "accountWiseAnalysis", "investmentAnalysis",
  "loanCreditsAnalysis", "counterPartyAnalysis", "nudges", "abbTables", "top5FundTransfer", "frequentCredits", "frequentDebits", "paymentTypeAnalytics",
];

describe("Analytics JSON (POST /analytics/json)", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ demo: true, env: { JOBS_POLL_INTERVAL_MS: "500" } });
  });
  afterAll(() => service.close());

  const call = (body: unknown, headers: Record<string, string> = DEMO_HEADERS) =>
    service.app.inject({ method: "POST", url: "/analytics/json", headers: { ...headers, "content-type": "application/json" }, payload: JSON.stringify(body) });

  async function storedRun(journeyId: string) {
    for (let i = 0; i < 100; i++) {
      const [row] = await service.ctx.db.query<{ runId: string; configId: string }>(`SELECT "runId"::text AS "runId", "configId" FROM "AnalyticsResult" WHERE "journeyId" = $1`, [journeyId]);
      if (row) return row;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no analytics stored for ${journeyId}`);
  }

  it("answers the spec's envelope with all fifteen sections computed from the demo journey, and rawData", async () => {
    const stored = await storedRun(DEMO.journeys.activePeriodic);
    const response = await call({ consentID: DEMO.consents.activePeriodic, journeyID: DEMO.journeys.activePeriodic });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expectContract("fiu", "getAnalyticsJson", 200, body);
    expect(body).toMatchObject({
      ver: "1.21.0",
      status: "success",
      data: {
        status: "SUCCESS",
        message: "Analytics generated successfully",
        status_code: "200",
        transaction_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        journey_transaction_id: `${DEMO.journeys.activePeriodic}:${DEMO.consents.activePeriodic}:${stored.runId}`,
        journey_id: DEMO.journeys.activePeriodic,
      },
    });
    const analysis = body.data.data.bankingAnalysis;
    expect(Object.keys(analysis).sort()).toEqual([...SECTIONS].sort());
    expect(analysis.overallAnalysis.totalNetCreditTransactionAmount).toBeGreaterThan(0);
    expect(analysis.overallAnalysis.weeklyAnalytics.length).toBeGreaterThanOrEqual(52);
    expect(Object.keys(analysis.completeCategoryWiseAnalysis.overallCategoryWiseAnalysis)).toEqual(expect.arrayContaining(["Salary", "EMI", "Food & Dining", "Cash Withdrawal", "ECS/NACH Bounce"]));
    expect(analysis.accountProfiles.map((p: { fiType: string }) => p.fiType)).toEqual(["DEPOSIT", "DEPOSIT", "TERM_DEPOSIT"]);
    expect(analysis.accountProfiles[0].holders.holder[0]).toMatchObject({ name: "Asha Verma", pan: "ABCPV1234K" });
    expect(Object.keys(analysis.accountWiseAnalysis)).toEqual([DEMO.links.savings, DEMO.links.current]);
    expect(analysis.bounceAnalysis.totalBounces).toBe(1);
    expect(analysis.nudges.items.length).toBeGreaterThan(1);
    const raw = body.data.data.rawData.accounts;
    expect(raw.map((a: { linkReferenceNumber: string }) => a.linkReferenceNumber)).toEqual([DEMO.links.savings, DEMO.links.current, DEMO.links.termDeposit]);
    const fiData = (await service.app.inject({ method: "POST", url: "/getfidata", headers: DEMO_HEADERS, payload: { consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.savings } })).json().data.fiData;
    expect(raw[0].transactions).toHaveLength(fiData.length);
    expect(raw[0].transactions[0]).toMatchObject({ txnId: expect.any(String), amount: expect.stringMatching(/^\d+\.\d{2}$/) });
  });

  it("serves the stored result again, and computes on demand when the job has not run", async () => {
    const first = (await call({ consentID: DEMO.consents.activePeriodic, journeyID: DEMO.journeys.activePeriodic })).json().data;
    const second = (await call({ consentID: DEMO.consents.activePeriodic, journeyID: DEMO.journeys.activePeriodic })).json().data;
    expect(second.journey_transaction_id).toBe(first.journey_transaction_id);
    expect(second.transaction_id).not.toBe(first.transaction_id);
    await service.ctx.db.query(`DELETE FROM "AnalyticsResult" WHERE "journeyId" = $1`, [DEMO.journeys.activeOnetime]);
    const onDemand = await call({ consentID: DEMO.consents.activeOnetime, journeyID: DEMO.journeys.activeOnetime });
    expect(onDemand.statusCode).toBe(200);
    // The one-time consent holds deposits only: profiles, no statement figures.
    expect(onDemand.json().data.data.bankingAnalysis.accountProfiles.map((p: { fiType: string }) => p.fiType)).toEqual(["RECURRING_DEPOSIT", "TERM-DEPOSIT"]);
    expect((await storedRun(DEMO.journeys.activeOnetime)).configId).toBe("default");
  });

  it.each([
    ["a missing consentID", { journeyID: DEMO.journeys.activePeriodic }, "consentID is required"],
    ["a missing journeyID", { consentID: DEMO.consents.activePeriodic }, "journeyID is required"],
    ["an unknown consent", { consentID: "11111111-2222-4333-8444-555555555555", journeyID: DEMO.journeys.activePeriodic }, "consentID 11111111-2222-4333-8444-555555555555 is not a consent of this organisation"],
    ["another organisation's consent", { consentID: DEMO.consents.otherOrganisation, journeyID: DEMO.journeys.otherOrganisation }, `consentID ${DEMO.consents.otherOrganisation} is not a consent of this organisation`],
    ["an unknown journey", { consentID: DEMO.consents.activePeriodic, journeyID: "jrn-nope" }, "journeyID jrn-nope does not exist"],
    ["a journey of another consent", { consentID: DEMO.consents.activePeriodic, journeyID: DEMO.journeys.activeOnetime }, `journeyID ${DEMO.journeys.activeOnetime} is not a journey of consentID ${DEMO.consents.activePeriodic}`],
  ])("answers %s with InvalidRequest saying which", async (_case, body, message) => {
    const response = await call(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ ver: "1.21.0", timestamp: expect.any(String), errorCode: "InvalidRequest", errorMsg: message, status: "failure" });
    expectContract("fiu", "getAnalyticsJson", 400, response.json());
  });

  it("answers a journey that has not completed with InvalidRequest", async () => {
    await service.ctx.db.query(`INSERT INTO "Journey" (id, "organisationId", "consentId", status) VALUES ('jrn-pending-1', 'demo-org', $1, 'PENDING')`, [DEMO.consents.activePeriodic]);
    const response = await call({ consentID: DEMO.consents.activePeriodic, journeyID: "jrn-pending-1" });
    expect(response.json()).toMatchObject({ errorCode: "InvalidRequest", errorMsg: "journeyID jrn-pending-1 has not completed; analytics are available once its data has arrived" });
  });

  it("honours the journey's configuration (configId), managed through the operator API", async () => {
    const defaults = await service.admin("GET", `/admin/v1/organisations/${DEMO.organisationId}/analytics-configs/default`);
    expect(defaults.json()).toMatchObject({ configId: "default", organisationId: null, settings: { abbDays: [5, 10, 15, 20, 25, 31] } });
    expect((await service.admin("GET", `/admin/v1/organisations/${DEMO.organisationId}/analytics-configs/unknown-config`)).statusCode).toBe(404);
    const put = await service.admin("PUT", `/admin/v1/organisations/${DEMO.organisationId}/analytics-configs/strict`, {
      abbDays: [1, 15, 30],
      categoryOverrides: [{ match: "SWIGGY|ZOMATO", category: "Entertainment", side: "DEBIT" }],
    });
    expect(put.statusCode).toBe(200);
    expectContract("admin", "putAnalyticsConfig", 200, put.json());
    expect(put.json().settings).toMatchObject({ abbDays: [1, 15, 30], roundFigureMultiple: 1000 });
    const bad = await service.admin("PUT", `/admin/v1/organisations/${DEMO.organisationId}/analytics-configs/bad`, { categoryOverrides: [{ match: "X", category: "Not A Category" }] });
    expect(bad.json()).toMatchObject({ errorCode: "InvalidRequest", errorMsg: 'categoryOverrides: "Not A Category" is not a category' });

    const consentID = randomUUID();
    const link = randomUUID();
    await createConsentWithLink(service, { organisationId: DEMO.organisationId, consentID, link });
    const statement = savingsAccount({ seed: 5, asOf: "2026-10-31", months: 3, linkedAccRef: link, maskedAccNumber: "XXXXXX7788" });
    expect((await ingest(service, consentID, [{ linkReferenceNumber: link, fipId: "F", fipName: "B", format: "json", data: statement }], { journeyID: "jrn-strict-1", configId: "strict" })).statusCode).toBe(201);
    expect((await storedRun("jrn-strict-1")).configId).toBe("strict");
    const analysis = (await call({ consentID, journeyID: "jrn-strict-1" })).json().data.data.bankingAnalysis;
    expect(analysis.abbTables.days).toEqual([1, 15, 30]);
    expect(Object.keys(analysis.completeCategoryWiseAnalysis.overallCategoryWiseAnalysis)).not.toContain("Food & Dining");
    expect(analysis.completeCategoryWiseAnalysis.overallCategoryWiseAnalysis.Entertainment.totalTransactions).toBeGreaterThan(0);
  });
});
