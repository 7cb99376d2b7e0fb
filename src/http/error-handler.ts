import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ServiceError } from "../domain/errors.ts";
import { renderError, type ErrorDialect, type Failure } from "./error-bodies.ts";

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const CONTEXT_NAMES: Record<string, string> = { querystring: "query parameter", params: "path parameter", headers: "header" };

/** "/user_profile/pan" -> "user_profile.pan" */
function fieldName(instancePath: string, child?: unknown): string {
  const parts = instancePath.split("/").filter(Boolean);
  if (typeof child === "string") parts.push(child);
  return parts.join(".");
}

/** One sentence that names the field, from the first schema-validation error. */
export function describeValidationError(error: AjvError, context: string | undefined): string {
  const where = context && context !== "body" ? `${CONTEXT_NAMES[context] ?? context} ` : "";
  const field = fieldName(error.instancePath);
  const subject = `${where}${field || (context === "body" || !context ? "request body" : "value")}`;
  switch (error.keyword) {
    case "required":
      return `${where}${fieldName(error.instancePath, error.params.missingProperty)} is required`;
    case "additionalProperties":
      return `${where}${fieldName(error.instancePath, error.params.additionalProperty)} is not a known field`;
    case "type":
      return `${subject} must be of type ${String(error.params.type).replace(",", " or ")}`;
    case "format":
      return `${subject} must be a valid ${error.params.format}`;
    case "enum":
      return `${subject} must be one of ${(error.params.allowedValues as unknown[]).join(", ")}`;
    case "pattern":
      return `${subject} has an invalid format`;
    case "minLength":
      return error.params.limit === 1 ? `${subject} must not be empty` : `${subject} must have at least ${error.params.limit} characters`;
    case "maxLength":
      return `${subject} must have at most ${error.params.limit} characters`;
    case "minimum":
    case "maximum":
      return `${subject} ${error.message}`;
    case "minItems":
      return `${subject} must have at least ${error.params.limit} item(s)`;
    default:
      return `${subject} is invalid`;
  }
}

function isJsonSyntaxError(error: FastifyError): boolean {
  return error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || (error instanceof SyntaxError && error.statusCode === 400);
}

/** Maps any error to the caller's failure; unexpected faults become a generic 500. */
export function toFailure(error: FastifyError | ServiceError | Error): Failure {
  if (error instanceof ServiceError) {
    return { status: error.status, code: error.code, message: error.message, details: error.details };
  }
  const fastifyError = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fastifyError.validation && fastifyError.validation.length > 0) {
    return {
      status: 400,
      code: "InvalidRequest",
      message: describeValidationError(fastifyError.validation[0] as AjvError, fastifyError.validationContext),
    };
  }
  switch (fastifyError.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { status: 413, code: "PayloadTooLarge", message: "The request body is too large" };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { status: 415, code: "UnsupportedMediaType", message: "Unsupported Content-Type; this operation takes application/json" };
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return { status: 400, code: "InvalidRequest", message: "Content-Length does not match the body" };
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { status: 400, code: "InvalidRequest", message: "The request body is empty" };
  }
  if (isJsonSyntaxError(fastifyError)) {
    return { status: 400, code: "InvalidRequest", message: "The request body is not valid JSON" };
  }
  const status = fastifyError.statusCode;
  if (status === 429) return { status, code: "RateLimitExceeded", message: "Too many requests" };
  if (status === 404) return { status, code: "NotFound", message: "Resource not found" };
  if (status && status >= 400 && status < 500) {
    return { status, code: "InvalidRequest", message: "The request is invalid" };
  }
  return { status: 500, code: "InternalError", message: "An unexpected error occurred; quote the x-request-id when reporting it" };
}

export function acceptsJson(request: FastifyRequest): boolean {
  return (request.headers.accept ?? "").toLowerCase().includes("application/json");
}

export function sendFailure(request: FastifyRequest, reply: FastifyReply, failure: Failure) {
  const dialect: ErrorDialect = (request.routeOptions.config as { errorDialect?: ErrorDialect } | undefined)?.errorDialect ?? "standard";
  const rendered = renderError(dialect, failure, { acceptsJson: acceptsJson(request), txnid: request.txnid });
  return reply.code(failure.status).type(rendered.contentType).send(rendered.body);
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = toFailure(error);
    if (failure.status >= 500 && failure.code === "InternalError") {
      request.log.error({ err: error }, "unexpected fault");
    } else {
      request.log.info({ errorCode: failure.code, status: failure.status }, failure.message);
    }
    return sendFailure(request, reply, failure);
  });
  app.setNotFoundHandler((request, reply) => {
    // The caller's path, echoed back, is bounded: the message is for people, not a mirror.
    const path = (request.url.split("?")[0] ?? "").slice(0, 200);
    return sendFailure(request, reply, { status: 404, code: "NotFound", message: `No operation at ${request.method} ${path}` });
  });
}
