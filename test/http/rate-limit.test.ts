import { afterAll, beforeAll, describe, expect, it } from "vitest";
import net from "node:net";
import { XMLParser } from "fast-xml-parser";
import { DEMO } from "../../src/domain/demo/seed.ts";
import { createTenant, DEMO_HEADERS, startTestService, type TenantFixture, type TestService } from "../helpers/service.ts";

const body = { consentID: DEMO.consents.activePeriodic, linkReferenceNumber: DEMO.links.savings };

function call(service: TestService, url: string, headers: Record<string, string> = DEMO_HEADERS) {
  return service.app.inject({ method: "POST", url, headers: { ...headers, "content-type": "application/json" }, payload: body });
}

describe("rate limits per organisation", () => {
  let service: TestService;
  let other: TenantFixture;

  beforeAll(async () => {
    service = await startTestService({ demo: true });
    await service.admin("PATCH", "/admin/v1/organisations/demo-org", { rateLimit: { max: 3, windowSeconds: 60 } });
    other = await createTenant(service);
  });
  afterAll(() => service.close());

  it("counts every data operation against one budget, with the X-RateLimit headers, then answers 429", async () => {
    const first = await call(service, "/getfidata");
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({ "x-ratelimit-limit": "3", "x-ratelimit-remaining": "2" });
    expect(Number(first.headers["x-ratelimit-reset"])).toBeGreaterThan(0);
    expect((await call(service, "/xml/getfidata")).headers["x-ratelimit-remaining"]).toBe("1");
    expect((await call(service, "/getfidata")).headers["x-ratelimit-remaining"]).toBe("0");

    const limited = await call(service, "/getfidata");
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ ver: "1.21.0", timestamp: expect.any(String), errorCode: "RateLimitExceeded", errorMsg: "Too many requests", status: "failure" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);

    const xml = await call(service, "/xml/getfidata");
    expect(xml.statusCode).toBe(429);
    expect(xml.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(new XMLParser().parse(xml.body).Response).toMatchObject({ errorCode: "RateLimitExceeded", errorMsg: "Too many requests", status: "failure" });

    // Bodies that would fail validation are counted and limited too.
    expect((await service.app.inject({ method: "POST", url: "/analytics/json", headers: { ...DEMO_HEADERS, "content-type": "application/json" }, payload: {} })).statusCode).toBe(429);
  });

  it("keeps organisations' budgets apart and uses the deployment default where none is set", async () => {
    const response = await call(service, "/getfidata", other.headers);
    expect(response.statusCode).toBe(400);
    expect(response.headers["x-ratelimit-limit"]).toBe("600");
  });

  it("does not count unauthenticated calls against an organisation", async () => {
    const response = await call(service, "/getfidata", { ...DEMO_HEADERS, client_secret: "wrong-secret-value" });
    expect(response.statusCode).toBe(401);
  });
});

async function redisReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(6379, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("rate limits shared through Redis", async () => {
  const available = await redisReachable();
  const instances: TestService[] = [];
  afterAll(async () => {
    for (const instance of instances) await instance.close();
  });

  it.runIf(available)("gives two instances one budget per organisation", async () => {
    const namespace = `test-${process.pid}-${Date.now()}`;
    const env = { REDIS_URL: "redis://127.0.0.1:6379", RATE_LIMIT_MAX: "4", RATE_LIMIT_WINDOW_SECONDS: "30", RATE_LIMIT_NAMESPACE: namespace };
    const a = await startTestService({ env, demo: true });
    instances.push(a);
    const b = await startTestService({ env, demo: true });
    instances.push(b);
    const statuses = [];
    for (const instance of [a, b, a, b, a, b]) statuses.push((await call(instance, "/getfidata")).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
