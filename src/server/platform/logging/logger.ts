import pino, { type DestinationStream, type Logger } from "pino";
import { REDACTED, redactRequestTarget } from "../error-recorder/redact.ts";
import { CLIENT_CLOSED_REQUEST } from "../http/client-abort.ts";

export type { Logger };

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
      timestamp: pino.stdTimeFunctions.isoTime,
      // Belt and braces: the access line never carries these, but a future field must not leak them.
      redact: {
        paths: ["authorization", "cookie", "password", "token", "*.authorization", "*.cookie", "*.password", "*.token", "headers.authorization", "headers.cookie"],
        censor: REDACTED,
      },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? stdoutDestination(),
  );
}

/**
 * stdout, written asynchronously (a slow log reader must not block the event loop), flushed
 * synchronously when the process exits so the last lines are not lost.
 */
function stdoutDestination(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false });
  process.once("exit", () => {
    try {
      destination.flushSync();
    } catch {
      // Nothing more can be done for a log at exit.
    }
  });
  return destination;
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
 * Writes one access line; 5xx at "error", 4xx at "warn", the rest at "info". A request the client
 * abandoned (499, http/client-abort.ts) is the client's doing and worth a debug line at most.
 */
export function logAccess(logger: Logger, line: AccessLine): void {
  const entry = { ...line, path: redactRequestTarget(line.method, line.path, line.route).slice(0, 500), durationMs: Math.round(line.durationMs * 10) / 10 };
  if (line.status === CLIENT_CLOSED_REQUEST) logger.debug(entry, "request abandoned by the client");
  else if (line.status >= 500) logger.error(entry, "request");
  else if (line.status >= 400) logger.warn(entry, "request");
  else logger.info(entry, "request");
}
