import type { AppContext } from "../context.ts";
import { notImplemented } from "../domain/errors.ts";
import type { HandlerMap } from "./handler.ts";

export function analyticsHandlers(_ctx: AppContext) {
  return {
    async getAnalyticsJson() {
      throw notImplemented("Analytics");
    },
  } satisfies HandlerMap;
}
