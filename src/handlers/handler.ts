import type { FastifyReply, FastifyRequest, RouteGenericInterface } from "fastify";

/** One operation's handler: parse the request, call a service, shape the answer. */
export type Handler<Route extends RouteGenericInterface = RouteGenericInterface> = (
  request: FastifyRequest<Route>,
  reply: FastifyReply,
) => Promise<unknown>;

// Each module builds its handlers from the application context; the map's keys are operationIds.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type HandlerMap = Record<string, Handler<any>>;
