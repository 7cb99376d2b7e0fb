import type { AppContext } from "../context.ts";
import { notImplemented } from "../domain/errors.ts";
import type { HandlerMap } from "./handler.ts";

export function bulkHandlers(_ctx: AppContext) {
  return {
    async scheduleBulkFiRequests() {
      throw notImplemented("Bulk scheduling");
    },
    async getBulkBatch() {
      throw notImplemented("Bulk batch tracking");
    },
    async getBulkBatchByReference() {
      throw notImplemented("Bulk batch tracking");
    },
  } satisfies HandlerMap;
}
