import Fastify, { type FastifyInstance, type FastifyServerOptions, type onRequestHookHandler } from "fastify";
import multipart from "@fastify/multipart";
import openapiGlue, { type FastifyOpenapiGlueOptions } from "fastify-openapi-glue";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AppContext } from "./context.ts";
import { allHandlers } from "./handlers/index.ts";
import { adminAuth, authKindOf, basicAuth, tenantAuth, type AuthKind } from "./http/auth.ts";
import type { ErrorDialect } from "./http/error-bodies.ts";
import { installErrorHandling } from "./http/error-handler.ts";
import { AccessLog, loggerOptions, requestId, type LogStream } from "./http/logging.ts";
import { API_DOCUMENTS, loadDocument, type ApiDocumentName } from "./http/specs.ts";
import { validatorCompiler } from "./http/validation.ts";
import { rateLimitedRoute, registerRateLimit } from "./http/rate-limit.ts";
import "./http/types.ts";

const ERROR_DIALECTS: Record<string, ErrorDialect> = {
  getFiDataXml: "xml",
  scheduleBulkFiRequests: "bulk",
  sdkInit: "sdk",
};

function tlsOptions(ctx: AppContext): Partial<FastifyServerOptions> {
  const tls = ctx.config.tls;
  if (!tls) return {};
  // The spec requires TLS 1.2 or higher: older protocol versions are refused at the handshake.
  return {
    https: { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile), minVersion: "TLSv1.2" },
  } as Partial<FastifyServerOptions>;
}

/** Builds the HTTP application: every operation of every OpenAPI document, routed by operationId. */
export async function buildApp(ctx: AppContext, options: { logStream?: LogStream } = {}): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    genReqId: requestId,
    bodyLimit: config.bodyLimitBytes,
    return503OnClosing: true,
    logController: new AccessLog(),
    forceCloseConnections: "idle",
    ...tlsOptions(ctx),
  });

  app.decorateRequest("tenant", null);
  app.decorateRequest("txnid", undefined);
  // JSON operations take application/json only; anything else is 415, not a string body. XML
  // appears in the documents only as a response type: an XML request body is refused as well.
  app.removeContentTypeParser("text/plain");
  // SDK Init with payload encryption: the body is a compact JWE, decrypted by the handler.
  app.addContentTypeParser("application/jose", { parseAs: "string" }, (_request, body, done) => done(null, body));
  app.addContentTypeParser("application/xml", (_request, _payload, done) => {
    done(Object.assign(new Error("Unsupported Media Type"), { statusCode: 415, code: "FST_ERR_CTP_INVALID_MEDIA_TYPE" }), undefined);
  });
  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app);
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });


  // Multipart bodies stream through the bulk upload handler; limits are set per request there.
  await app.register(multipart, { throwFileSizeLimit: true });
  await registerRateLimit(app, config.redisUrl, config.rateLimit.namespace);
  const limited = rateLimitedRoute(ctx.rateLimits);

  const handlers = allHandlers(ctx);
  // Every bulk upload answer, errors included, carries a txnid unique to the call.
  const assignTxnid: onRequestHookHandler = async (request) => {
    request.txnid = randomUUID();
  };
  const authHooks: Record<AuthKind, onRequestHookHandler[]> = {
    tenant: [tenantAuth(ctx.tenants)],
    basic: [basicAuth(ctx.tenants)],
    admin: [adminAuth(config.adminToken)],
    none: [],
  };
  const prefixes: Record<ApiDocumentName, string> = { fiu: config.basePrefix, pfm: config.pfmPrefix, admin: "" };

  for (const name of API_DOCUMENTS) {
    const document = loadDocument(name);
    await app.register(openapiGlue, {
      specification: document,
      prefix: prefixes[name],
      // Glue spreads what this returns over the route it built (method, url, schema), so the
      // handler comes with its authentication hook and error dialect.
      operationResolver: ((operationId: string, method: string, openapiPath: string) => {
        const handler = handlers[operationId];
        if (!handler) throw new Error(`operation ${operationId} of ${name}.yaml has no handler`);
        const operation = document.paths[openapiPath]?.[method.toLowerCase()];
        const auth = authKindOf(operation?.security ?? document.security);
        const upload = operationId === "scheduleBulkFiRequests";
        return {
          handler,
          onRequest: upload ? [assignTxnid, ...authHooks[auth]] : authHooks[auth],
          // The upload streams its multipart body itself; there is no parsed body to validate.
          ...(upload ? { schema: undefined } : {}),
          // SDK Init answers invalid fields with its own codes, in its documented order.
          ...(operationId === "sdkInit" ? { attachValidation: true } : {}),
          config: {
            errorDialect: ERROR_DIALECTS[operationId] ?? "standard",
            operationId,
            // The organisation's budget covers every operation its applications call with the four headers.
            ...(auth === "tenant" ? { rateLimit: limited } : {}),
          },
        };
      }) as unknown as FastifyOpenapiGlueOptions["operationResolver"],
    });
  }
  return app;
}
