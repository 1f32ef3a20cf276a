import pino, { type DestinationStream, type Logger } from "pino";
import SonicBoom from "sonic-boom";
import { REDACTED, redactText, redactValue } from "./redact-text.ts";

export type { Logger };

// sonic-boom's types describe its default (string) mode only; in buffer mode `write` takes a Buffer.
declare module "sonic-boom" {
  interface SonicBoom {
    write(chunk: Buffer): boolean;
  }
}

/**
 * The server's JSON log (pino) at LOG_LEVEL: one line per request (the access line,
 * request/access-log.ts) and one per event (`logEvent`: an unhandled exception, a failed job attempt, a
 * lost database connection, a worker restart, start and stop). Every line goes through the same
 * redactor as error_logs (error-recorder/redact.ts): the access line's path keeps its query keys
 * but only the values its endpoint declares plain, an event's message, fields and stack are
 * scrubbed as free text, and any field that could carry a credential never appears.
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
      // An exception under `err` is written by the redactor (`errorField`), never as pino's own
      // serializer would: that one copies the raw message and stack, secrets and all.
      serializers: { err: errorField },
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

export type EventLevel = "fatal" | "error" | "warn" | "info" | "debug";

/** Longest stack kept in a line, as in an error-log row (error-recorder.ts). */
const MAX_STACK = 8000;

/** An exception as a log field: its name, message and stack, scrubbed as free text (any other thrown value as its text). */
function errorField(err: unknown): Record<string, string> {
  if (!(err instanceof Error)) return { message: redactText(String(err)).slice(0, 2000) };
  return { type: err.name, message: redactText(err.message).slice(0, 2000), ...(err.stack ? { stack: redactText(err.stack).slice(0, MAX_STACK) } : {}) };
}

/**
 * Writes one event line: `message` scrubbed as free text; `fields` by key name and as free text
 * (redact-text.ts), an `err` field as its name, message and stack. The line is one
 * JSON object (a stack's line breaks are escaped in it), so a log reader never sees half an event.
 */
export function logEvent(logger: Logger, level: EventLevel, message: string, fields: { err?: unknown; [key: string]: unknown } = {}): void {
  if (!logger.isLevelEnabled(level)) return;
  const { err, ...rest } = fields;
  const entry = redactValue(rest) as Record<string, unknown>;
  // Serialized by createLogger's `err` serializer (errorField).
  if (err !== undefined) entry.err = err;
  logger[level](entry, redactText(message));
}

/**
 * A line saying the process started, where it listens, that a worker was replaced or that it
 * stops: written at "info" whatever LOG_LEVEL says (but "silent"), because deployment tooling and
 * operators wait for these lines while LOG_LEVEL=warn keeps the access lines of successful
 * requests out.
 */
export function logLifecycle(logger: Logger, message: string, fields: Record<string, unknown> = {}): void {
  if (logger.level === "silent") return;
  logEvent(logger.isLevelEnabled("info") ? logger : logger.child({}, { level: "info" }), "info", message, fields);
}

let processLogger: Logger | undefined;

/**
 * The log of code that runs outside a request and has no AppDeps at hand (the database driver and
 * change feed, the job worker, the error recorder, the identity provider's key fetch, migrations).
 * The server's start-up (runtime.ts) and the supervisor (cluster-primary.ts) set it to their
 * logger; until then (a command run by hand) it is stdout at "info".
 */
export function processLog(): Logger {
  processLogger ??= createLogger("info");
  return processLogger;
}

export function setProcessLog(logger: Logger): void {
  processLogger = logger;
}
