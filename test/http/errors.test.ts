import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { createContext } from "../../src/context.ts";
import { openDatabase } from "../../src/db/database.ts";
import { migrate } from "../../src/db/migrator.ts";
import { createTenant, startTestService, TEST_KEY_SECRET, type TenantFixture, type TestService } from "../helpers/service.ts";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectErrorBody(body: Record<string, unknown>, errorCode: string, errorMsg?: string | RegExp) {
  expect(Object.keys(body).sort()).toEqual(["errorCode", "errorMsg", "status", "timestamp", "ver"]);
  expect(body).toMatchObject({ ver: "1.21.0", errorCode, status: "failure" });
  expect(body.timestamp).toMatch(ISO);
  if (errorMsg) expect(body.errorMsg).toMatch(errorMsg);
}

describe("one error mapping for the whole service", () => {
  let service: TestService;
  let tenant: TenantFixture;

  beforeAll(async () => {
    service = await startTestService({ env: { BODY_LIMIT_BYTES: "2048" } });
    tenant = await createTenant(service);
  });
  afterAll(() => service.close());

  const post = (url: string, payload: string, contentType = "application/json", extra: Record<string, string> = {}) =>
    service.app.inject({ method: "POST", url, headers: { ...tenant.headers, "content-type": contentType, ...extra }, payload });

  it.each([
    [{ linkReferenceNumber: "0b8e4c1a-6c2f-4d8e-9a51-1f0e6a7b2c3d" }, "consentID is required"],
    [{ consentID: "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f" }, "linkReferenceNumber is required"],
    [{}, "consentID is required"],
    [{ consentID: "not-a-uuid", linkReferenceNumber: "0b8e4c1a-6c2f-4d8e-9a51-1f0e6a7b2c3d" }, "consentID must be a valid uuid"],
    [{ consentID: 42, linkReferenceNumber: "0b8e4c1a-6c2f-4d8e-9a51-1f0e6a7b2c3d" }, "consentID must be of type string"],
    [[], "request body must be of type object"],
  ])("answers a schema failure %j with InvalidRequest naming the field", async (payload, message) => {
    const response = await post("/getfidata", JSON.stringify(payload));
    expect(response.statusCode).toBe(400);
    expectErrorBody(response.json(), "InvalidRequest", message);
  });

  it("answers malformed JSON with InvalidRequest", async () => {
    const response = await post("/getfidata", '{"consentID": ');
    expect(response.statusCode).toBe(400);
    expectErrorBody(response.json(), "InvalidRequest", "The request body is not valid JSON");
  });

  it("answers an empty JSON body with InvalidRequest", async () => {
    const response = await post("/analytics/json", "");
    expect(response.statusCode).toBe(400);
    expectErrorBody(response.json(), "InvalidRequest");
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "application/xml"])("answers Content-Type %s with 415 UnsupportedMediaType", async (type) => {
    const response = await post("/getfidata", "consentID=1", type);
    expect(response.statusCode).toBe(415);
    expectErrorBody(response.json(), "UnsupportedMediaType");
  });

  it("answers an oversized body with 413 PayloadTooLarge", async () => {
    const response = await post("/getfidata", JSON.stringify({ consentID: "x".repeat(5000) }));
    expect(response.statusCode).toBe(413);
    expectErrorBody(response.json(), "PayloadTooLarge");
  });

  it("answers an unknown route with 404 NotFound", async () => {
    const response = await service.app.inject({ method: "GET", url: "/no/such/thing?x=1" });
    expect(response.statusCode).toBe(404);
    expectErrorBody(response.json(), "NotFound", "No operation at GET /no/such/thing");
  });

  it("keeps the echoed path of an unknown route short", async () => {
    const response = await service.app.inject({ method: "GET", url: `/${"a".repeat(5000)}` });
    expect(response.statusCode).toBe(404);
    expect(response.json().errorMsg).toBe(`No operation at GET /${"a".repeat(199)}`);
  });

  it("answers a known path with the wrong method with 404 NotFound", async () => {
    const response = await service.app.inject({ method: "GET", url: "/getfidata" });
    expect(response.statusCode).toBe(404);
    expectErrorBody(response.json(), "NotFound");
  });

  it("answers the XML operation's validation failures as the XML error document", async () => {
    const response = await post("/xml/getfidata", JSON.stringify({ consentID: "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f" }));
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(response.body).toContain("<errorCode>InvalidRequest</errorCode><errorMsg>linkReferenceNumber is required</errorMsg><status>failure</status>");
  });

  it("answers the XML operation's failures as JSON when the caller accepts JSON", async () => {
    const response = await post("/xml/getfidata", "{}", "application/json", { accept: "application/json" });
    expect(response.statusCode).toBe(400);
    expectErrorBody(response.json(), "InvalidRequest", "consentID is required");
  });

  it("echoes a safe x-request-id and makes one up otherwise", async () => {
    const echoed = await service.app.inject({ method: "GET", url: "/healthz", headers: { "x-request-id": "trace-42.a:b" } });
    expect(echoed.headers["x-request-id"]).toBe("trace-42.a:b");
    const replaced = await service.app.inject({ method: "GET", url: "/healthz", headers: { "x-request-id": "<script>" } });
    expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await service.app.inject({ method: "GET", url: "/nowhere" });
    expect(failed.headers["x-request-id"]).toBeDefined();
  });
});

describe("unexpected faults", () => {
  it("answer 500 with a generic message and no stack, and log the cause with the request id", async () => {
    const lines: string[] = [];
    const db = openDatabase({ dataDir: "memory://" });
    await migrate(db);
    const config = (await import("../../src/config.ts")).loadConfig({ LOG_LEVEL: "info", ADMIN_TOKEN: "test-admin-token-0123456789", KEY_ENCRYPTION_SECRET: TEST_KEY_SECRET });
    const ctx = createContext(config, db);
    const app = await buildApp(ctx, { logStream: { write: (line: string) => void lines.push(line) } });
    await db.close();
    const response = await app.inject({ method: "GET", url: "/admin/v1/organisations/x1", headers: { authorization: "Bearer test-admin-token-0123456789", "x-request-id": "fault-1" } });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toMatchObject({ ver: "1.21.0", errorCode: "InternalError", status: "failure" });
    expect(body.errorMsg).toBe("An unexpected error occurred; quote the x-request-id when reporting it");
    expect(response.body).not.toMatch(/at .*\.ts:\d+|stack|PGlite/i);
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === "unexpected fault");
    expect(logged).toMatchObject({ reqId: "fault-1" });
    expect(logged.err.message).toMatch(/closed/i);
    await app.close();
  });

  it("make readiness answer 503 when the database is gone", async () => {
    const db = openDatabase({ dataDir: "memory://" });
    await migrate(db);
    const config = (await import("../../src/config.ts")).loadConfig({ LOG_LEVEL: "silent", KEY_ENCRYPTION_SECRET: TEST_KEY_SECRET });
    const app = await buildApp(createContext(config, db));
    expect((await app.inject({ method: "GET", url: "/readyz" })).json()).toEqual({ status: "ok", database: "pglite" });
    await db.close();
    const response = await app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: "unavailable", database: "pglite" });
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    await app.close();
  });

  it("never write secrets or personal data into the logs", async () => {
    const lines: string[] = [];
    const db = openDatabase({ dataDir: "memory://" });
    await migrate(db);
    const config = (await import("../../src/config.ts")).loadConfig({ LOG_LEVEL: "debug", ADMIN_TOKEN: "test-admin-token-0123456789", KEY_ENCRYPTION_SECRET: TEST_KEY_SECRET });
    const ctx = createContext(config, db);
    const app = await buildApp(ctx, { logStream: { write: (line: string) => void lines.push(line) } });
    const adminHeaders = { authorization: "Bearer test-admin-token-0123456789" };
    await app.inject({ method: "POST", url: "/admin/v1/organisations", headers: adminHeaders, payload: { organisationId: "log-org", name: "Log Org" } });
    const created = (await app.inject({ method: "POST", url: "/admin/v1/organisations/log-org/apps", headers: adminHeaders, payload: { appIdentifier: "a1" } })).json();
    const tenantHeaders = { client_id: created.client_id, client_secret: created.client_secret, organisationId: "log-org", appIdentifier: "a1" };
    await app.inject({ method: "POST", url: "/getfidata", headers: tenantHeaders, payload: { consentID: "bad" } });
    await app.inject({ method: "POST", url: "/getfidata", headers: { ...tenantHeaders, client_secret: "wrong-secret-value" }, payload: {} });
    const basic = Buffer.from(`${created.client_id}:${created.client_secret}`).toString("base64");
    await app.inject({ method: "POST", url: "/pfm/sdk/init", headers: { authorization: `Basic ${basic}` }, payload: { reference_id: "r", pfm_config_id: "p", user_profile: { pan: "ABCPV1234K", mobile_number: "9876543210" } } });
    await app.close();
    await db.close();
    const log = lines.join("\n");
    expect(lines.length).toBeGreaterThan(5);
    for (const secret of [created.client_secret, "wrong-secret-value", "test-admin-token-0123456789", basic, "ABCPV1234K", "9876543210"]) {
      expect(log).not.toContain(secret);
    }
  });
});
