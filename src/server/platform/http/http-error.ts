import type { ContentfulStatusCode } from "hono/utils/http-status";

/** An expected failure with the status and code the client should see. Thrown anywhere, shaped in one onError. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** For invalid input: each input at fault with its message (the answer's `error.fields`). */
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string, code = "bad_request") => new HttpError(400, code, message);
/** A 400 naming the one input at fault: message "field: problem", fields { field: problem }. */
export const invalidField = (field: string, problem: string, code = "invalid_input") => new HttpError(400, code, `${field}: ${problem}`, {}, { [field]: problem });
export const conflict = (message: string, code = "conflict") => new HttpError(409, code, message);
export const notFound = (message = "Not found") => new HttpError(404, "not_found", message);
export const unauthorized = (message = "Authentication required") => new HttpError(401, "unauthorized", message);
export const forbidden = (message = "Administrator access required") => new HttpError(403, "forbidden", message);
export const tooManyRequests = (retryAfterSeconds: number, message = "Too many attempts, try again later") =>
  new HttpError(429, "rate_limited", message, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const serviceUnavailable = (message = "The database is busy, try again shortly", retryAfterSeconds = 2) =>
  new HttpError(503, "unavailable", message, { "Retry-After": String(retryAfterSeconds) });
