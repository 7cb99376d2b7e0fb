import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import type { TenantService } from "../domain/tenants.ts";
import { safeEqual } from "../domain/credentials.ts";
import { ServiceError, unauthorized } from "../domain/errors.ts";
import { sendFailure } from "./error-handler.ts";

/** How an operation authenticates, read from the `security` of its OpenAPI operation. */
export type AuthKind = "tenant" | "basic" | "admin" | "none";

const SCHEME_KINDS: Record<string, AuthKind> = {
  ClientId: "tenant",
  ClientSecret: "tenant",
  OrganisationId: "tenant",
  AppIdentifier: "tenant",
  BasicAuth: "basic",
  AdminToken: "admin",
};

export function authKindOf(security: Array<Record<string, unknown>> | undefined): AuthKind {
  const schemes = (security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return "none";
  const kinds = new Set(schemes.map((scheme) => SCHEME_KINDS[scheme]));
  if (kinds.size !== 1 || kinds.has(undefined)) throw new Error(`unsupported security requirement: ${schemes.join(", ")}`);
  return [...kinds][0] as AuthKind;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function refuse(request: FastifyRequest, reply: FastifyReply, error: ServiceError = unauthorized()) {
  request.log.info({ errorCode: error.code }, "authentication refused");
  return sendFailure(request, reply, { status: error.status, code: error.code, message: error.message });
}

/**
 * The four tenant headers. Runs on request, before the body is read or validated: an
 * unauthenticated caller always gets 401 and learns nothing about its body.
 */
export function tenantAuth(tenants: TenantService): onRequestHookHandler {
  return async function authenticateTenant(request, reply) {
    const clientId = header(request, "client_id");
    const clientSecret = header(request, "client_secret");
    const organisationId = header(request, "organisationId");
    const appIdentifier = header(request, "appIdentifier");
    if (!clientId || !clientSecret || !organisationId || !appIdentifier) return refuse(request, reply);
    const tenant = await tenants.authenticate(clientId, clientSecret);
    if (!tenant || !safeEqual(tenant.organisationId, organisationId) || !safeEqual(tenant.appIdentifier, appIdentifier)) {
      return refuse(request, reply);
    }
    request.tenant = tenant;
  };
}

/** `authorization: Basic base64(client_id:client_secret)`. */
export function basicAuth(tenants: TenantService): onRequestHookHandler {
  return async function authenticateBasic(request, reply) {
    const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header(request, "authorization") ?? "");
    const decoded = match ? Buffer.from(match[1] as string, "base64").toString("utf8") : "";
    const colon = decoded.indexOf(":");
    if (colon <= 0 || colon === decoded.length - 1) return refuse(request, reply);
    const tenant = await tenants.authenticate(decoded.slice(0, colon), decoded.slice(colon + 1));
    if (!tenant) return refuse(request, reply);
    request.tenant = tenant;
  };
}

/** `Authorization: Bearer <ADMIN_TOKEN>`; every call is refused when the operator API is off. */
export function adminAuth(adminToken: string | null): onRequestHookHandler {
  return async function authenticateOperator(request, reply) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header(request, "authorization") ?? "");
    if (!adminToken) {
      return refuse(request, reply, new ServiceError(401, "Unauthorized", "The operator API is disabled on this deployment"));
    }
    if (!match || !safeEqual(match[1] as string, adminToken)) return refuse(request, reply);
  };
}
