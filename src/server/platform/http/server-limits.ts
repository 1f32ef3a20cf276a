import type { Server, ServerOptions } from "node:http";
import type { Socket } from "node:net";
import { httpConnectionsRefused } from "../metrics/metrics.ts";
import { logEvent, processLog } from "../logging/logger.ts";

/**
 * How long one client may hold a socket of a server process, and how many it may hold. node's
 * defaults let a request take 300 s to arrive (its headers 60 s), checked only every 30 s, and a
 * process accepts connections until it runs out of file descriptors: a client sending part of a
 * body kept its socket for five minutes (issue 31). The limits come from the configuration
 * (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_MAX_CONNECTIONS; docs/product.md §13).
 */
export interface ServerLimits {
  httpHeadersTimeoutMs: number;
  httpRequestTimeoutMs: number;
  httpMaxConnections: number;
}

/** node checks for requests past their timeouts this often at most (its default is 30 s, which would let a 10 s timeout run 40 s). */
const MAX_CHECK_INTERVAL_MS = 1000;

/**
 * node:http's options for receiving requests. A request whose headers (or whole request, body
 * included) have not arrived in time gets node's own 408 and its connection closed; a request
 * already being handled sees its body cut off, which the app treats as the client's doing
 * (http/client-abort.ts). The time taken to answer never counts: node stops the clock once the
 * request has arrived. The headers are part of the request, so a shorter request timeout bounds
 * them too.
 */
export function requestTimeouts(limits: ServerLimits): Pick<ServerOptions, "headersTimeout" | "requestTimeout" | "connectionsCheckingInterval"> {
  const headersTimeout = Math.min(limits.httpHeadersTimeoutMs, limits.httpRequestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: limits.httpRequestTimeoutMs,
    // A timeout fires at most a quarter late (or a second, whichever is less).
    connectionsCheckingInterval: Math.min(MAX_CHECK_INTERVAL_MS, Math.ceil(headersTimeout / 4)),
  };
}

/** At most one warning line a minute however many connections are refused (the metric counts each). */
const REFUSAL_WARNING_INTERVAL_MS = 60_000;

/**
 * Closes, unread, every connection beyond `limits.httpMaxConnections` open ones of this process,
 * counting each in `hki_http_connections_refused_total` and warning at most once a minute. Counted
 * here rather than with node's `server.maxConnections`: under the cluster supervisor
 * (WEB_CONCURRENCY > 1) a worker at that limit hands the connection back to the supervisor, which
 * offers it to the next worker, and so on while all are full: a busy loop of the supervisor
 * (three quarters of a core in a trial with two full workers).
 */
export function capConnections(server: Server, limits: Pick<ServerLimits, "httpMaxConnections">, warn: (line: string) => void = (line) => logEvent(processLog(), "warn", line)): void {
  const max = limits.httpMaxConnections;
  let open = 0;
  let refusedSinceWarning = 0;
  let lastWarningAt = -Infinity;
  server.on("connection", (socket: Socket) => {
    if (open >= max) {
      socket.destroy();
      httpConnectionsRefused.inc();
      refusedSinceWarning += 1;
      const now = performance.now();
      if (now - lastWarningAt >= REFUSAL_WARNING_INTERVAL_MS) {
        warn(`[http] ${refusedSinceWarning} connection(s) refused: ${max} already open in this process (HTTP_MAX_CONNECTIONS)`);
        lastWarningAt = now;
        refusedSinceWarning = 0;
      }
      return;
    }
    open += 1;
    socket.once("close", () => (open -= 1));
  });
}
