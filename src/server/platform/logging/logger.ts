import pino, { type DestinationStream, type Logger } from "pino";
import SonicBoom from "sonic-boom";
import { REDACTED, redactRequestTarget } from "../error-recorder/redact.ts";
import { CLIENT_CLOSED_REQUEST, REQUEST_TIMEOUT } from "../http/client-abort.ts";

export type { Logger };

// sonic-boom's types describe its default (string) mode only; in buffer mode `write` takes a Buffer.
declare module "sonic-boom" {
  interface SonicBoom {
    write(chunk: Buffer): boolean;
  }
}

/**
 * The server's JSON log (pino): one line per request (the access line) with method, path, status,
 * duration, user id and request id, at LOG_LEVEL. The same redactor as error_logs applies
 * (error-logging/redact.ts): the path keeps its query keys but only the values its endpoint
 * declares plain, secret path segments (export and invitation tokens) are replaced, and any field
 * that could carry a credential never appears.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: isoTimeOncePerMillisecond,
      // Belt and braces: the access line never carries these, but a future field must not leak them.
      // Top-level names only: wildcard paths ("*.token") made pino walk every line's keys, which
      // doubled the cost of an access line (24 against 11 µs); the line is
      // flat (AccessLine), so nested paths could never match anyway.
      redact: { paths: ["authorization", "cookie", "password", "token", "headers"], censor: REDACTED },
      formatters: { level: levelLabel },
    },
    destination ?? stdoutDestination(),
  );
}

const levelLabel = (label: string) => ({ level: label });

let isoMs = -1;
let isoText = "";
/** pino's ISO time, formatted once per millisecond rather than once per line (many lines share one under load). */
function isoTimeOncePerMillisecond(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    isoText = `,"time":"${new Date(now).toISOString()}"`;
  }
  return isoText;
}

/**
 * stdout, written asynchronously (a slow log reader must not block the event loop), flushed
 * synchronously when the process exits so the last lines are not lost.
 *
 * sonic-boom in buffer mode, each line handed over as its own Buffer: in its default (string)
 * mode every line is appended to the pending chunk with `+=` and the chunk's UTF-8 length is
 * measured again, which flattens the whole chunk (up to 16 KB) per line. Under load that was ~8 KB
 * of garbage per request, the largest single allocation of a cached dashboard answer
 * (a sampling heap profile of the server under load). In buffer mode pending lines are a list joined
 * once per write.
 */
function stdoutDestination(): DestinationStream {
  const boom = new SonicBoom({ fd: 1, sync: false, contentMode: "buffer" });
  process.once("exit", () => {
    try {
      boom.flushSync();
    } catch {
      // Nothing is left to write to (stdout closed): the lines have nowhere to go.
    }
  });
  return { write: (line: string) => boom.write(Buffer.from(line)) };
}

export interface AccessLine {
  method: string;
  /** Path with its query string; redacted (error-logging/redact.ts) before logging. */
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
