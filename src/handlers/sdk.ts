import type { AppContext } from "../context.ts";
import { PayloadDecryptionError } from "../domain/sdk/sessions.ts";
import type { Handler, HandlerMap } from "./handler.ts";

const JOSE = "application/jose";

export function sdkHandlers(ctx: AppContext) {
  const { sdk, keys } = ctx;
  return {
    // The body is checked by the service, in the documented order and with the SDK's failure
    // codes (the route collects schema errors instead of answering them: attachValidation).
    sdkInit: (async (request, reply) => {
      const encrypted = (request.headers["content-type"] ?? "").toLowerCase().startsWith(JOSE);
      let payload: unknown = request.body;
      if (encrypted) {
        try {
          payload = await sdk.decrypt(String(request.body ?? ""));
        } catch (error) {
          if (!(error instanceof PayloadDecryptionError)) throw error;
          return reply.code(400).send({ status: "FAILED", message: error.message, status_code: "invalid_request", is_retryable: false });
        }
      }
      const outcome = await sdk.initialise(request.tenant!, payload, encrypted);
      reply.code(outcome.status);
      if (outcome.encryptTo) return reply.type(JOSE).send(await sdk.encrypt(outcome.body, outcome.encryptTo));
      return outcome.body;
    }) satisfies Handler<{ Body: unknown }>,

    getJwks: (async (_request, reply) => {
      reply.header("cache-control", "public, max-age=300");
      return keys.jwks();
    }) satisfies Handler,
  } satisfies HandlerMap;
}
