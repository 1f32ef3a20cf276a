import { redactRequestTarget } from "../error-recorder/redact.ts";
import { CLIENT_CLOSED_REQUEST, REQUEST_TIMEOUT } from "../http/client-abort.ts";
import type { Logger } from "../logging/logger.ts";

export interface AccessLine {
  method: string;
  /** Path with its query string; redacted (error-recorder/redact.ts) before logging. */
  path: string;
  status: number;
  durationMs: number;
  userId: string | null;
  requestId: string;
  clientIp: string;
  /** The endpoint's path pattern, when a defined endpoint answered. */
  route?: string;
}

/**
 * Request targets the redactor left as they were (nothing secret in them), so the next request for
 * the same target skips the redactor (the bench's requests repeat a few targets thousands of
 * times). Only unchanged targets are remembered, so no secret is ever kept here; bounded.
 */
const cleanTargets = new Set<string>();
const CLEAN_TARGETS_MAX = 2000;

function redactedTarget(method: string, path: string, route: string | undefined): string {
  const key = `${method} ${route ?? ""} ${path}`;
  if (cleanTargets.has(key)) return path;
  const redacted = redactRequestTarget(method, path, route).slice(0, 500);
  if (redacted === path) {
    if (cleanTargets.size >= CLEAN_TARGETS_MAX) cleanTargets.clear();
    cleanTargets.add(key);
  }
  return redacted;
}

/**
 * Writes one access line; 5xx at "error", 4xx at "warn", the rest at "info". A request the client
 * abandoned (499, http/client-abort.ts) or did not send in time (408) is the client's doing and
 * worth a debug line at most.
 */
export function logAccess(logger: Logger, line: AccessLine): void {
  const entry = { ...line, path: redactedTarget(line.method, line.path, line.route), durationMs: Math.round(line.durationMs * 10) / 10 };
  if (line.status === CLIENT_CLOSED_REQUEST) logger.debug(entry, "request abandoned by the client");
  else if (line.status === REQUEST_TIMEOUT) logger.debug(entry, "request not received in time");
  else if (line.status >= 500) logger.error(entry, "request");
  else if (line.status >= 400) logger.warn(entry, "request");
  else logger.info(entry, "request");
}
