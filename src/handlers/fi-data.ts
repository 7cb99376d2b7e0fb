import type { AppContext } from "../context.ts";
import { notImplemented } from "../domain/errors.ts";
import type { HandlerMap } from "./handler.ts";

export function fiDataHandlers(_ctx: AppContext) {
  return {
    async getFiData() {
      throw notImplemented("Get FI Data");
    },
    async getFiDataXml() {
      throw notImplemented("Get FI Data XML");
    },
  } satisfies HandlerMap;
}
