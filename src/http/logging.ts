import { randomUUID } from "node:crypto";
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions, type RawRequestDefaultExpression } from "fastify";

/** Where JSON log lines go; standard output unless a test captures them. */
export interface LogStream {
  write(line: string): void;
}

// Secrets and personal data that could reach a log line through headers or logged objects.
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.client_secret",
  "req.headers.cookie",
  "*.client_secret",
  "*.clientSecret",
  "*.clientSecretHash",
  "*.webhookSecret",
  "*.password",
  "*.pan",
  "*.mobile_number",
  "*.mobile",
  "*.dob",
  "*.email",
  "*.session_token",
  "*.privateJwk",
];

export function loggerOptions(level: string, stream?: LogStream): FastifyServerOptions["logger"] {
  if (level === "silent") return false;
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    ...(stream ? { stream } : {}),
  };
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's x-request-id when it is a safe token, so that calls can be traced end to end. */
export function requestId(request: RawRequestDefaultExpression): string {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * One access-log line per request, when it is answered (Fastify writes two by default: on arrival
 * and on completion). The URL is logged without bodies or headers; the organisation is added once
 * authenticated.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
      organisationId: request.tenant?.organisationId,
    };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
