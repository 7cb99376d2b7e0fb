import { randomUUID } from "node:crypto";
import type { AppContext } from "../context.ts";
import type { operations } from "../../generated/api/fiu.ts";
import { API_VERSION } from "../http/error-bodies.ts";
import type { RequestBody } from "../http/types.ts";
import type { Handler, HandlerMap } from "./handler.ts";

type Op = operations;

export function analyticsHandlers(ctx: AppContext) {
  return {
    getAnalyticsJson: (async (request) => {
      const run = await ctx.analytics.forJourney(request.tenant!.organisationId, request.body.consentID, request.body.journeyID);
      return {
        ver: API_VERSION,
        status: "success",
        data: {
          status: "SUCCESS",
          message: "Analytics generated successfully",
          status_code: "200",
          transaction_id: randomUUID(),
          journey_transaction_id: `${run.journeyId}:${run.consentId}:${run.runId}`,
          journey_id: run.journeyId,
          data: { bankingAnalysis: run.bankingAnalysis, rawData: run.rawData },
        },
      };
    }) satisfies Handler<{ Body: RequestBody<Op["getAnalyticsJson"]> }>,
  } satisfies HandlerMap;
}
