import type { Tenant } from "../domain/tenants.ts";
import type { ErrorDialect } from "./error-bodies.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The verified caller of a tenant operation. */
    tenant: Tenant | null;
    /** The bulk upload's txnid, also carried by its error bodies. */
    txnid: string | undefined;
  }
  interface FastifyContextConfig {
    errorDialect?: ErrorDialect;
    operationId?: string;
  }
}

type JsonContent<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

/** The JSON request body of an operation of a generated `operations` type. */
export type RequestBody<Operation> = Operation extends { requestBody: infer Body } ? JsonContent<Body> : never;

/** The JSON response body of an operation for a status. */
export type ResponseBody<Operation, Status extends number> = Operation extends { responses: infer Responses }
  ? Status extends keyof Responses
    ? JsonContent<Responses[Status]>
    : never
  : never;

export type PathParams<Operation> = Operation extends { parameters: { path: infer Path } } ? Path : never;
export type QueryParams<Operation> = Operation extends { parameters: { query?: infer Query } } ? NonNullable<Query> : never;
