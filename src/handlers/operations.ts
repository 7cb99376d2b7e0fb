import type { AppContext } from "../context.ts";
import type { operations } from "../../generated/api/admin.ts";
import type { ResponseBody } from "../http/types.ts";
import type { HandlerMap } from "./handler.ts";

type Health = ResponseBody<operations["getReadiness"], 200>;

export function operationsHandlers(ctx: AppContext) {
  return {
    async getHealth(): Promise<Health> {
      return { status: "ok" };
    },

    async getReadiness(_request, reply): Promise<Health> {
      const database = ctx.db.kind;
      if (ctx.lifecycle.shuttingDown) return reply.code(503).send({ status: "unavailable", database });
      try {
        await ctx.db.query("SELECT 1");
        return { status: "ok", database };
      } catch {
        return reply.code(503).send({ status: "unavailable", database });
      }
    },
  } satisfies HandlerMap;
}
