import type { AppContext } from "../context.ts";
import type { operations } from "../../generated/api/admin.ts";
import type { PathParams, RequestBody, ResponseBody } from "../http/types.ts";
import type { ConsentTypeName } from "../domain/consents.ts";
import type { Handler, HandlerMap } from "./handler.ts";
import type { PfmConfigRecord } from "../db/repositories/tenants.ts";

type Op = operations;
type Route<Name extends keyof Op> = {
  Body: RequestBody<Op[Name]>;
  Params: PathParams<Op[Name]>;
};

function pfmConfigView(config: PfmConfigRecord): ResponseBody<Op["getPfmConfig"], 200> {
  return {
    pfm_config_id: config.pfmConfigId,
    organisationId: config.organisationId,
    encryption: { enabled: config.encryptionEnabled, clientPublicJwk: (config.clientPublicJwk ?? null) as ResponseBody<Op["getPfmConfig"], 200>["encryption"]["clientPublicJwk"] },
  };
}

export function adminHandlers(ctx: AppContext) {
  const { tenants, consents } = ctx;
  return {
    createOrganisation: (async (request, reply): Promise<ResponseBody<Op["createOrganisation"], 201>> => {
      const organisation = await tenants.createOrganisation(request.body);
      reply.code(201);
      return { organisationId: organisation.organisationId, webhookSecret: organisation.webhookSecret };
    }) satisfies Handler<Route<"createOrganisation">>,

    getOrganisation: (async (request) => tenants.getOrganisation(request.params.organisationId)) satisfies Handler<
      Route<"getOrganisation">
    >,

    updateOrganisation: (async (request) => {
      const organisation = await tenants.updateOrganisation(request.params.organisationId, request.body);
      ctx.rateLimits.forget(organisation.organisationId);
      return organisation;
    }) satisfies Handler<Route<"updateOrganisation">>,

    createApp: (async (request, reply): Promise<ResponseBody<Op["createApp"], 201>> => {
      const created = await tenants.createApp({
        organisationId: request.params.organisationId,
        appIdentifier: request.body.appIdentifier,
        clientId: request.body.client_id,
        clientSecret: request.body.client_secret,
      });
      reply.code(201);
      return created;
    }) satisfies Handler<Route<"createApp">>,

    createPfmConfig: (async (request, reply): Promise<ResponseBody<Op["createPfmConfig"], 201>> => {
      const config = await tenants.createPfmConfig(request.params.organisationId, request.body.pfm_config_id);
      reply.code(201);
      return pfmConfigView(config);
    }) satisfies Handler<Route<"createPfmConfig">>,

    getPfmConfig: (async (request) => pfmConfigView(await tenants.getPfmConfig(request.params.organisationId, request.params.pfmConfigId))) satisfies Handler<
      Route<"getPfmConfig">
    >,

    updatePfmConfig: (async (request) => {
      const { organisationId, pfmConfigId } = request.params;
      const config = await tenants.setPfmEncryption(organisationId, pfmConfigId, request.body.encryption);
      ctx.sdk.forgetConfig(organisationId, pfmConfigId);
      return pfmConfigView(config);
    }) satisfies Handler<Route<"updatePfmConfig">>,

    getAnalyticsConfig: (async (request) => {
      await tenants.getOrganisation(request.params.organisationId);
      return ctx.analytics.getConfig(request.params.organisationId, request.params.configId);
    }) satisfies Handler<Route<"getAnalyticsConfig">>,

    putAnalyticsConfig: (async (request) => {
      await tenants.getOrganisation(request.params.organisationId);
      return ctx.analytics.putConfig(request.params.organisationId, request.params.configId, request.body);
    }) satisfies Handler<Route<"putAnalyticsConfig">>,

    rotateSdkSigningKey: (async (_request, reply) => {
      const rotated = await ctx.keys.rotate();
      reply.code(201);
      return rotated;
    }) satisfies Handler<Route<"rotateSdkSigningKey">>,

    createConsent: (async (request, reply) => {
      const consent = await consents.create({ ...request.body, type: request.body.type as ConsentTypeName });
      reply.code(201);
      return consent;
    }) satisfies Handler<Route<"createConsent">>,

    getConsent: (async (request) => consents.get(request.params.consentID)) satisfies Handler<Route<"getConsent">>,

    updateConsent: (async (request) => consents.changeState(request.params.consentID, request.body.state)) satisfies Handler<
      Route<"updateConsent">
    >,

    createLink: (async (request, reply) => {
      const link = await consents.link(request.params.consentID, request.body);
      reply.code(201);
      return link;
    }) satisfies Handler<Route<"createLink">>,

    ingestFiData: (async (request, reply): Promise<ResponseBody<Op["ingestFiData"], 201>> => {
      const result = await ctx.ingestion.ingest(request.body);
      reply.code(201);
      return {
        journeyID: result.journeyID,
        accounts: result.accounts.map(({ linkReferenceNumber, transactions }) => ({ linkReferenceNumber, transactions })),
      };
    }) satisfies Handler<Route<"ingestFiData">>,
  } satisfies HandlerMap;
}
