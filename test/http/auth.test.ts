import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { createContext } from "../../src/context.ts";
import { createTenant, startTestService, type TenantFixture, type TestService } from "../helpers/service.ts";

const UNAUTHORIZED = { errorCode: "Unauthorized", errorMsg: "Invalid credentials", status: "failure", ver: "1.21.0" };
const body = { consentID: "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f", linkReferenceNumber: "0b8e4c1a-6c2f-4d8e-9a51-1f0e6a7b2c3d" };

describe("tenant authentication (the four headers)", () => {
  let service: TestService;
  let tenant: TenantFixture;
  let other: TenantFixture;

  beforeAll(async () => {
    service = await startTestService();
    tenant = await createTenant(service);
    other = await createTenant(service);
  });
  afterAll(() => service.close());

  const call = (headers: Record<string, string>, payload: unknown = body, url = "/getfidata") =>
    service.app.inject({ method: "POST", url, headers: { "content-type": "application/json", ...headers }, payload: JSON.stringify(payload) });

  it("lets valid credentials through to the operation", async () => {
    const response = await call(tenant.headers);
    expect(response.statusCode).not.toBe(401);
  });

  it.each(["client_id", "client_secret", "organisationId", "appIdentifier"])("refuses a request without %s", async (name) => {
    const headers = { ...tenant.headers };
    delete headers[name];
    const response = await call(headers);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject(UNAUTHORIZED);
  });

  it.each([
    ["a wrong secret", { client_secret: "not-the-secret-at-all" }],
    ["an unknown client_id", { client_id: "cl_unknown" }],
    ["another organisation's id", { organisationId: "other-organisation" }],
    ["another application's identifier", { appIdentifier: "some-other-app" }],
    ["an empty secret", { client_secret: "" }],
  ])("refuses %s", async (_case, change) => {
    const response = await call({ ...tenant.headers, ...change });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject(UNAUTHORIZED);
  });

  it("refuses one organisation's credentials presented for another", async () => {
    const response = await call({ ...tenant.headers, organisationId: other.organisationId });
    expect(response.statusCode).toBe(401);
  });

  it("answers 401 before looking at the body: an unauthenticated bad body learns nothing", async () => {
    const response = await call({}, { nonsense: true });
    expect(response.statusCode).toBe(401);
    const malformed = await service.app.inject({ method: "POST", url: "/getfidata", headers: { "content-type": "application/json" }, payload: "{not json" });
    expect(malformed.statusCode).toBe(401);
  });

  it("answers the XML operation's 401 as the XML error document", async () => {
    const response = await call({}, body, "/xml/getfidata");
    expect(response.statusCode).toBe(401);
    expect(response.headers["content-type"]).toMatch(/^application\/xml/);
    expect(response.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><ver>1\.21\.0<\/ver><timestamp>[^<]+<\/timestamp><errorCode>Unauthorized<\/errorCode><errorMsg>Invalid credentials<\/errorMsg><status>failure<\/status><\/Response>$/);
  });

  it("never stores the client secret in clear", async () => {
    const apps = await service.ctx.db.query<{ clientSecretHash: string }>(`SELECT "clientSecretHash" FROM "App" WHERE "organisationId" = $1`, [tenant.organisationId]);
    expect(apps[0]?.clientSecretHash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(apps[0]?.clientSecretHash).not.toContain(tenant.headers.client_secret);
  });
});

describe("Basic authentication (SDK Init)", () => {
  let service: TestService;
  let tenant: TenantFixture;

  beforeAll(async () => {
    service = await startTestService();
    tenant = await createTenant(service);
  });
  afterAll(() => service.close());

  const sdkInit = (authorization?: string) =>
    service.app.inject({
      method: "POST",
      url: "/pfm/sdk/init",
      headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
      payload: { reference_id: "u1", pfm_config_id: "p", user_profile: { mobile_number: "9876543210", pan: "ABCPV1234K" } },
    });
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

  it.each([
    ["missing", undefined],
    ["not Basic", "Bearer abc"],
    ["not base64 of id:secret", "Basic !!!"],
    ["without a colon", `Basic ${Buffer.from("just-an-id").toString("base64")}`],
    ["with a wrong secret", "WRONG"],
  ])("refuses a header %s with the SDK failure body", async (_case, header) => {
    const response = await sdkInit(header === "WRONG" ? basic(tenant.headers.client_id as string, "wrong-secret") : header);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ status: "FAILED", message: "Invalid credentials", status_code: "unauthorized", is_retryable: false });
  });

  it("accepts the application's client_id and secret", async () => {
    const response = await sdkInit(basic(tenant.headers.client_id as string, tenant.headers.client_secret as string));
    expect(response.statusCode).not.toBe(401);
  });
});

describe("operator API authentication", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer wrong-token-wrong-token" }],
    ["a Basic header", { authorization: "Basic YWRtaW46YWRtaW4=" }],
  ])("refuses %s", async (_case, headers) => {
    const response = await service.app.inject({ method: "GET", url: "/admin/v1/organisations/x1", headers });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ errorCode: "Unauthorized", status: "failure" });
  });

  it("refuses everything when the operator API is off (no ADMIN_TOKEN on PostgreSQL)", async () => {
    const app = await buildApp(createContext({ ...service.config, adminToken: null }, service.ctx.db));
    try {
      const response = await app.inject({ method: "GET", url: "/admin/v1/organisations/x1", headers: { authorization: "Bearer demo-admin-token" } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ errorCode: "Unauthorized", errorMsg: "The operator API is disabled on this deployment" });
    } finally {
      await app.close();
    }
  });
});
