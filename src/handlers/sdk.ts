import type { AppContext } from "../context.ts";
import { notImplemented } from "../domain/errors.ts";
import type { HandlerMap } from "./handler.ts";

export function sdkHandlers(_ctx: AppContext) {
  return {
    async sdkInit() {
      throw notImplemented("SDK Init");
    },
    async getJwks() {
      return { keys: [] };
    },
  } satisfies HandlerMap;
}
