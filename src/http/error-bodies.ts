import { randomUUID } from "node:crypto";
import { XML_DECLARATION, xmlElements } from "../serialization/xml-escape.ts";

export const API_VERSION = "1.21.0";
export const BULK_API_VERSION = "1.0";

/**
 * How an operation writes its failures: the spec's error body (`standard`), the bulk upload's
 * (adds txnid), the XML operation's document, or SDK Init's FAILED body.
 */
export type ErrorDialect = "standard" | "bulk" | "xml" | "sdk";

export interface Failure {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown> | undefined;
}

export interface RenderedError {
  contentType: string;
  body: string | Record<string, unknown>;
}

const SDK_STATUS_CODES: Record<string, string> = {
  Unauthorized: "unauthorized",
  PayloadTooLarge: "payload_too_large",
  UnsupportedMediaType: "unsupported_media_type",
  InternalError: "internal_error",
  ServiceUnavailable: "internal_error",
  InvalidRequest: "invalid_request",
};

export function standardErrorBody(failure: Failure) {
  return {
    ver: API_VERSION,
    timestamp: new Date().toISOString(),
    errorCode: failure.code,
    errorMsg: failure.message,
    status: "failure" as const,
  };
}

export function xmlErrorDocument(failure: Failure): string {
  return (
    XML_DECLARATION +
    "<Response>" +
    xmlElements([
      ["ver", API_VERSION],
      ["timestamp", new Date().toISOString()],
      ["errorCode", failure.code],
      ["errorMsg", failure.message],
      ["status", "failure"],
    ]) +
    "</Response>"
  );
}

export function renderError(
  dialect: ErrorDialect,
  failure: Failure,
  context: { acceptsJson: boolean; txnid?: string | undefined },
): RenderedError {
  switch (dialect) {
    case "xml":
      if (!context.acceptsJson) return { contentType: "application/xml; charset=utf-8", body: xmlErrorDocument(failure) };
      return { contentType: "application/json; charset=utf-8", body: standardErrorBody(failure) };
    case "bulk":
      return {
        contentType: "application/json; charset=utf-8",
        body: {
          ver: BULK_API_VERSION,
          timestamp: new Date().toISOString(),
          txnid: context.txnid ?? randomUUID(),
          errorCode: failure.code,
          errorMsg: failure.message,
          status: "failure",
          ...(failure.details ? { errorDetails: failure.details } : {}),
        },
      };
    case "sdk":
      return {
        contentType: "application/json; charset=utf-8",
        body: {
          status: "FAILED",
          message: failure.message,
          status_code: (failure.details?.status_code as string | undefined) ?? SDK_STATUS_CODES[failure.code] ?? "invalid_request",
          is_retryable: failure.status >= 500 || failure.status === 429,
        },
      };
    default:
      return { contentType: "application/json; charset=utf-8", body: standardErrorBody(failure) };
  }
}
