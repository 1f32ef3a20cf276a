import pino, { type DestinationStream, type Logger } from "pino";
import { REDACTED, redactText, redactUrlPath } from "../error-logging/redact.ts";

export type { Logger };

/**
 * The server's JSON log (pino): one line per request (the access line) with method, path, status,
 * duration, user id and request id, at LOG_LEVEL. The same redaction as error_logs applies: the
 * path's secret-named query values, and any field that could carry a credential, never appear.
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
  /** Path with its query string; secret-named query values are replaced before logging. */
  path: string;
  status: number;
  durationMs: number;
  userId: string | null;
  requestId: string;
  clientIp: string;
  /** The endpoint's path pattern, when a defined endpoint answered. */
  route?: string;
}

/** Writes one access line; 5xx at "error", 4xx at "warn", the rest at "info". */
export function logAccess(logger: Logger, line: AccessLine): void {
  const entry = { ...line, path: redactText(redactUrlPath(line.path)).slice(0, 500), durationMs: Math.round(line.durationMs * 10) / 10 };
  if (line.status >= 500) logger.error(entry, "request");
  else if (line.status >= 400) logger.warn(entry, "request");
  else logger.info(entry, "request");
}
