import { randomUUID } from "node:crypto";
import http from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/database.ts";
import { expectContract } from "../helpers/contract.ts";
import { createConsentWithLink, depositJson, ingest, SAMPLE_TRANSACTIONS } from "../helpers/rebit.ts";
import { createTenant, startTestService, type TestService } from "../helpers/service.ts";

const FAST_RETRIES = { WEBHOOK_RETRY_DELAY_SECONDS: "1", WEBHOOK_RETRY_DELAY_MAX_SECONDS: "2", JOBS_POLL_INTERVAL_MS: "500", WEBHOOK_TIMEOUT_MS: "2000" };

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback that answers each delivery with the next status of `plan`. */
async function receiver(plan: number[], port = 0) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.statusCode = plan[Math.min(received.length - 1, plan.length - 1)] ?? 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/hooks/fiu`, port: address.port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function deliveries(service: TestService, organisationId: string) {
  const response = await service.admin("GET", `/admin/v1/organisations/${organisationId}/webhook-deliveries`);
  expectContract("admin", "listWebhookDeliveries", 200, response.json());
  return response.json().deliveries as Array<Record<string, any>>;
}

async function dataArrives(service: TestService, organisationId: string, links = 1) {
  const consentID = randomUUID();
  const accounts = [];
  for (let i = 0; i < links; i++) {
    const link = randomUUID();
    if (i === 0) await createConsentWithLink(service, { organisationId, consentID, link });
    else await service.admin("POST", `/admin/v1/consents/${consentID}/links`, { linkReferenceNumber: link, fipId: "TEST-FIP", fipName: "Test Bank", fiType: "DEPOSIT", maskedAccountNumber: "X1" });
    accounts.push({ linkReferenceNumber: link, fipId: "TEST-FIP", fipName: "Test Bank", format: "json", data: depositJson({ link, transactions: SAMPLE_TRANSACTIONS }) });
  }
  const response = await ingest(service, consentID, accounts, { journeyID: `jrn-${randomUUID()}` });
  expect(response.statusCode).toBe(201);
  return { consentID, journeyID: response.json().journeyID as string, links: accounts.map((a) => a.linkReferenceNumber) };
}

describe("DATA_READY webhooks", () => {
  let service: TestService;
  const receivers: Array<{ close: () => Promise<void> }> = [];

  beforeAll(async () => {
    service = await startTestService({ env: FAST_RETRIES });
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(() => service.close());

  async function tenantWithReceiver(plan: number[]) {
    const target = await receiver(plan);
    receivers.push(target);
    const tenant = await createTenant(service);
    await service.admin("PATCH", `/admin/v1/organisations/${tenant.organisationId}`, { webhookUrl: target.url });
    return { tenant, target };
  }

  it("delivers one signed event per account, retrying 5xx and 429 with backoff until it is acknowledged", async () => {
    const { tenant, target } = await tenantWithReceiver([503, 429, 200]);
    const arrived = await dataArrives(service, tenant.organisationId);
    const [delivery] = await until(async () => {
      const list = await deliveries(service, tenant.organisationId);
      return list[0]?.status === "DELIVERED" ? list : undefined;
    });
    expect(target.received).toHaveLength(3);
    expect(delivery).toMatchObject({ status: "DELIVERED", attemptCount: 3, lastResponseCode: 200, eventType: "DATA_READY", targetUrl: target.url });
    expect(delivery!.attempts.map((a: { responseCode: number; succeeded: boolean }) => [a.responseCode, a.succeeded])).toEqual([[503, false], [429, false], [200, true]]);
    for (const attempt of delivery!.attempts) expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
    const gaps = delivery!.attempts.slice(1).map((a: { startedAt: string }, i: number) => Date.parse(a.startedAt) - Date.parse(delivery!.attempts[i].startedAt));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(500);

    const ids = new Set(target.received.map((r) => r.headers["webhook-id"]));
    expect(ids).toEqual(new Set([delivery!.deliveryId]));
    for (const request of target.received) {
      const verified = new Webhook(tenant.webhookSecret).verify(request.body, request.headers as Record<string, string>);
      expect(verified).toEqual({
        type: "DATA_READY",
        timestamp: expect.any(String),
        data: { organisationId: tenant.organisationId, consentID: arrived.consentID, journeyID: arrived.journeyID, linkReferenceNumber: arrived.links[0], fipId: "TEST-FIP", fiType: "DEPOSIT" },
      });
      expect(request.headers["content-type"]).toBe("application/json");
    }
    expect(() => new Webhook("whsec_" + Buffer.from("another-secret-entirely").toString("base64")).verify(target.received[0]!.body, target.received[0]!.headers as Record<string, string>)).toThrow();
  });

  it("sends one event per account of a journey", async () => {
    const { tenant, target } = await tenantWithReceiver([200]);
    const arrived = await dataArrives(service, tenant.organisationId, 3);
    await until(async () => (target.received.length >= 3 ? true : undefined));
    const links = target.received.map((r) => JSON.parse(r.body).data.linkReferenceNumber).sort();
    expect(links).toEqual([...arrived.links].sort());
  });

  it("does not retry other 4xx answers", async () => {
    const { tenant, target } = await tenantWithReceiver([410]);
    await dataArrives(service, tenant.organisationId);
    const [delivery] = await until(async () => {
      const list = await deliveries(service, tenant.organisationId);
      return list[0]?.status === "FAILED" ? list : undefined;
    });
    expect(delivery).toMatchObject({ attemptCount: 1, lastResponseCode: 410, lastError: "HTTP 410" });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(target.received).toHaveLength(1);
  });

  it("records an event of an organisation without a webhook URL as FAILED, and replays it once a URL is set", async () => {
    const tenant = await createTenant(service);
    await dataArrives(service, tenant.organisationId);
    const [failed] = await deliveries(service, tenant.organisationId);
    expect(failed).toMatchObject({ status: "FAILED", attemptCount: 0, lastError: "the organisation has no webhook URL" });
    const target = await receiver([200]);
    receivers.push(target);
    await service.admin("PATCH", `/admin/v1/organisations/${tenant.organisationId}`, { webhookUrl: target.url });
    const replayed = await service.admin("POST", `/admin/v1/webhook-deliveries/${failed!.deliveryId}/replay`);
    expect(replayed.statusCode).toBe(202);
    expectContract("admin", "replayWebhookDelivery", 202, replayed.json());
    const done = await until(async () => {
      const read = (await service.admin("GET", `/admin/v1/webhook-deliveries/${failed!.deliveryId}`)).json();
      return read.status === "DELIVERED" ? read : undefined;
    });
    expect(done).toMatchObject({ attemptCount: 1, targetUrl: target.url });
    expect(target.received[0]!.headers["webhook-id"]).toBe(failed!.deliveryId);
  });

  it("refuses to replay a delivery that is still being retried, and answers 404 for an unknown one", async () => {
    const { tenant } = await tenantWithReceiver([500]);
    await dataArrives(service, tenant.organisationId);
    const [pending] = await deliveries(service, tenant.organisationId);
    expect(pending!.status).toBe("PENDING");
    expect((await service.admin("POST", `/admin/v1/webhook-deliveries/${pending!.deliveryId}/replay`)).statusCode).toBe(409);
    expect((await service.admin("POST", "/admin/v1/webhook-deliveries/msg_unknown/replay")).statusCode).toBe(404);
    expect((await service.admin("GET", "/admin/v1/webhook-deliveries/msg_unknown")).statusCode).toBe(404);
  });
});

describe("webhook delivery horizon and restarts", () => {
  it("gives up once the retry horizon has passed, recording every attempt", async () => {
    const service = await startTestService({ env: { ...FAST_RETRIES, WEBHOOK_RETRY_HORIZON_SECONDS: "2" } });
    const target = await receiver([500]);
    try {
      const tenant = await createTenant(service);
      await service.admin("PATCH", `/admin/v1/organisations/${tenant.organisationId}`, { webhookUrl: target.url });
      await dataArrives(service, tenant.organisationId);
      const [delivery] = await until(async () => {
        const list = await deliveries(service, tenant.organisationId);
        return list[0]?.status === "FAILED" ? list : undefined;
      });
      expect(delivery!.attemptCount).toBeGreaterThanOrEqual(2);
      expect(delivery!.attempts).toHaveLength(delivery!.attemptCount);
      expect(delivery!.lastError).toMatch(/^HTTP 500; gave up after \d+ attempts$/);
      expect(target.received).toHaveLength(delivery!.attemptCount);
    } finally {
      await target.close();
      await service.close();
    }
  });

  it("keeps pending events across a restart of the service and delivers them afterwards", async () => {
    const database = await createTestDatabase({ persistent: true });
    // A receiver that is down: the port is reserved, then closed.
    const reserved = await receiver([200]);
    await reserved.close();
    const first = await startTestService({ env: FAST_RETRIES, database });
    const tenant = await createTenant(first);
    await first.admin("PATCH", `/admin/v1/organisations/${tenant.organisationId}`, { webhookUrl: reserved.url });
    const arrived = await dataArrives(first, tenant.organisationId);
    await until(async () => ((await deliveries(first, tenant.organisationId))[0]?.attemptCount >= 1 ? true : undefined));
    await first.close();

    const target = await receiver([200], reserved.port);
    const second = await startTestService({ env: FAST_RETRIES, database, reopen: true });
    try {
      const [delivery] = await until(async () => {
        const list = await deliveries(second, tenant.organisationId);
        return list[0]?.status === "DELIVERED" ? list : undefined;
      });
      expect(delivery!.attempts[0]).toMatchObject({ succeeded: false, responseCode: null, error: "ECONNREFUSED" });
      expect(JSON.parse(target.received[0]!.body).data.journeyID).toBe(arrived.journeyID);
    } finally {
      await target.close();
      await second.close();
      await database.drop();
    }
  });
});
