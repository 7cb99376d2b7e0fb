import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/service.ts";

describe("operator API", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("creates an organisation with a Standard Webhooks secret, and refuses a duplicate", async () => {
    const created = await service.admin("POST", "/admin/v1/organisations", { organisationId: "acme-lending", name: "Acme Lending", webhookUrl: "https://hooks.acme.in/fiu", rateLimit: { max: 100, windowSeconds: 60 } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ organisationId: "acme-lending", webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{32}$/) });
    const read = await service.admin("GET", "/admin/v1/organisations/acme-lending");
    expect(read.json()).toMatchObject({ organisationId: "acme-lending", name: "Acme Lending", webhookUrl: "https://hooks.acme.in/fiu", rateLimit: { max: 100, windowSeconds: 60 } });
    const again = await service.admin("POST", "/admin/v1/organisations", { organisationId: "acme-lending", name: "Again" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ errorCode: "Conflict", status: "failure" });
  });

  it("changes an organisation and clears optional settings with null", async () => {
    await service.admin("POST", "/admin/v1/organisations", { organisationId: "patch-org", name: "P", webhookUrl: "https://x.in/h" });
    const patched = await service.admin("PATCH", "/admin/v1/organisations/patch-org", { name: "Patched", webhookUrl: null, rateLimit: { max: 5, windowSeconds: 1 } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: "Patched", webhookUrl: null, rateLimit: { max: 5, windowSeconds: 1 } });
    expect((await service.admin("PATCH", "/admin/v1/organisations/nobody", { name: "x" })).statusCode).toBe(404);
  });

  it("creates applications whose secret is shown once and works as credentials", async () => {
    await service.admin("POST", "/admin/v1/organisations", { organisationId: "apps-org", name: "Apps" });
    const created = await service.admin("POST", "/admin/v1/organisations/apps-org/apps", { appIdentifier: "lending-app" });
    expect(created.statusCode).toBe(201);
    const app = created.json();
    expect(app).toEqual({ appIdentifier: "lending-app", client_id: expect.stringMatching(/^cl_[0-9a-f]{24}$/), client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const chosen = await service.admin("POST", "/admin/v1/organisations/apps-org/apps", { appIdentifier: "second", client_id: "chosen-client", client_secret: "a-chosen-secret-of-length" });
    expect(chosen.json()).toMatchObject({ client_id: "chosen-client", client_secret: "a-chosen-secret-of-length" });
    expect((await service.admin("POST", "/admin/v1/organisations/apps-org/apps", { appIdentifier: "lending-app" })).statusCode).toBe(409);
    expect((await service.admin("POST", "/admin/v1/organisations/apps-org/apps", { appIdentifier: "third", client_secret: "short" })).statusCode).toBe(400);
    expect((await service.admin("POST", "/admin/v1/organisations/no-org/apps", { appIdentifier: "x1" })).statusCode).toBe(404);
    const authenticated = await service.app.inject({
      method: "POST",
      url: "/getfidata",
      headers: { client_id: app.client_id, client_secret: app.client_secret, organisationId: "apps-org", appIdentifier: "lending-app" },
      payload: {},
    });
    expect(authenticated.json()).toMatchObject({ errorCode: "InvalidRequest", errorMsg: "consentID is required" });
  });

  it("creates PFM configurations", async () => {
    await service.admin("POST", "/admin/v1/organisations", { organisationId: "pfm-org", name: "P" });
    const created = await service.admin("POST", "/admin/v1/organisations/pfm-org/pfm-configs", { pfm_config_id: "wealth-pfm" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ pfm_config_id: "wealth-pfm", organisationId: "pfm-org", encryption: { enabled: false, clientPublicJwk: null } });
    expect((await service.admin("POST", "/admin/v1/organisations/pfm-org/pfm-configs", { pfm_config_id: "wealth-pfm" })).statusCode).toBe(409);
  });

  it("records consents in any state, in either case, changes them, and links accounts", async () => {
    await service.admin("POST", "/admin/v1/organisations", { organisationId: "consent-org", name: "C" });
    const consentID = randomUUID();
    const created = await service.admin("POST", "/admin/v1/consents", { consentID, organisationId: "consent-org", type: "PERIODIC", state: "active" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ consentID, organisationId: "consent-org", type: "PERIODIC", state: "ACTIVE", links: [] });
    for (const state of ["paused", "REVOKED", "Expired".toUpperCase(), "ACTIVE"]) {
      const changed = await service.admin("PATCH", `/admin/v1/consents/${consentID}`, { state });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().state).toBe(state.toUpperCase());
    }
    const link = { linkReferenceNumber: randomUUID(), fipId: "HDFC-FIP", fipName: "HDFC Bank", fiType: "TERM-DEPOSIT", maskedAccountNumber: "XXXXXX1234" };
    const linked = await service.admin("POST", `/admin/v1/consents/${consentID}/links`, link);
    expect(linked.statusCode).toBe(201);
    expect(linked.json()).toEqual({ ...link, dataAvailable: false });
    expect((await service.admin("POST", `/admin/v1/consents/${consentID}/links`, link)).statusCode).toBe(409);
    const read = await service.admin("GET", `/admin/v1/consents/${consentID}`);
    expect(read.json().links).toEqual([{ ...link, dataAvailable: false }]);
  });

  it.each([
    ["an unknown organisation", { consentID: "11111111-1111-4111-8111-111111111111", organisationId: "ghost-org", type: "ONETIME", state: "ACTIVE" }, 404],
    ["a state outside the list", { consentID: "11111111-1111-4111-8111-111111111112", organisationId: "consent-org", type: "ONETIME", state: "DELETED" }, 400],
    ["a consentID that is not a UUID", { consentID: "c-1", organisationId: "consent-org", type: "ONETIME", state: "ACTIVE" }, 400],
    ["a missing type", { consentID: "11111111-1111-4111-8111-111111111113", organisationId: "consent-org", state: "ACTIVE" }, 400],
  ])("refuses a consent with %s", async (_case, payload, status) => {
    const response = await service.admin("POST", "/admin/v1/consents", payload);
    expect(response.statusCode).toBe(status);
  });

  it("answers unknown consents with 404 and names the problem field on bad links", async () => {
    expect((await service.admin("GET", `/admin/v1/consents/${randomUUID()}`)).statusCode).toBe(404);
    expect((await service.admin("PATCH", `/admin/v1/consents/${randomUUID()}`, { state: "PAUSED" })).statusCode).toBe(404);
    const bad = await service.admin("POST", `/admin/v1/consents/${randomUUID()}/links`, { linkReferenceNumber: "x", fipId: "f", fipName: "n", fiType: "DEPOSIT", maskedAccountNumber: "m" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorMsg).toBe("linkReferenceNumber must be a valid uuid");
  });
});
