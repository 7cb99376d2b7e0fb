import type { AppContext } from "../context.ts";
import type { operations } from "../../generated/api/admin.ts";
import type { PathParams, QueryParams } from "../http/types.ts";
import type { Handler, HandlerMap } from "./handler.ts";

type Op = operations;

export function webhookHandlers(ctx: AppContext) {
  const { webhooks, tenants } = ctx;
  return {
    listWebhookDeliveries: (async (request) => {
      await tenants.getOrganisation(request.params.organisationId);
      const deliveries = await webhooks.list(request.params.organisationId, { status: request.query.status, limit: request.query.limit ?? 50 });
      return { deliveries };
    }) satisfies Handler<{ Params: PathParams<Op["listWebhookDeliveries"]>; Querystring: QueryParams<Op["listWebhookDeliveries"]> }>,

    getWebhookDelivery: (async (request) => webhooks.get(request.params.deliveryId)) satisfies Handler<{
      Params: PathParams<Op["getWebhookDelivery"]>;
    }>,

    replayWebhookDelivery: (async (request, reply) => {
      const delivery = await webhooks.replay(request.params.deliveryId);
      reply.code(202);
      return delivery;
    }) satisfies Handler<{ Params: PathParams<Op["replayWebhookDelivery"]> }>,
  } satisfies HandlerMap;
}
