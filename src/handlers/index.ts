import type { AppContext } from "../context.ts";
import { adminHandlers } from "./admin.ts";
import { analyticsHandlers } from "./analytics.ts";
import { bulkHandlers } from "./bulk.ts";
import { fiDataHandlers } from "./fi-data.ts";
import type { HandlerMap } from "./handler.ts";
import { operationsHandlers } from "./operations.ts";
import { sdkHandlers } from "./sdk.ts";
import { webhookHandlers } from "./webhooks.ts";

/** Every operation's handler, keyed by operationId (one module per OpenAPI tag). */
export function allHandlers(ctx: AppContext): HandlerMap {
  return {
    ...fiDataHandlers(ctx),
    ...bulkHandlers(ctx),
    ...analyticsHandlers(ctx),
    ...sdkHandlers(ctx),
    ...adminHandlers(ctx),
    ...webhookHandlers(ctx),
    ...operationsHandlers(ctx),
  };
}
