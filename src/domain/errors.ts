/**
 * A failure the caller can act on. `code` is the spec's errorCode; `status` the HTTP status it is
 * answered with. Anything thrown that is not a ServiceError is an unexpected fault (500).
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "ServiceError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const invalidRequest = (message: string, details?: Record<string, unknown>) =>
  new ServiceError(400, "InvalidRequest", message, details);
export const unauthorized = () => new ServiceError(401, "Unauthorized", "Invalid credentials");
export const notFound = (message: string) => new ServiceError(404, "NotFound", message);
export const conflict = (message: string) => new ServiceError(409, "Conflict", message);
