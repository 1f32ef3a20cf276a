import type { Context } from "hono";
import type { IncomingMessage } from "node:http";
import { nodeRequest } from "./exchange-headers.ts";

/**
 * A request the client gave up on while sending it: the connection was reset (or closed) before
 * the body arrived. It is the client's doing, not an outage: nothing can be answered (the socket is
 * gone), nothing goes to error_logs, and the access line is a debug line (nginx calls the status
 * 499, "client closed request"). Only errors of the database clients are database outages
 * (http/database-errors.ts).
 */
export const CLIENT_CLOSED_REQUEST = 499;
/**
 * A request whose body did not arrive within HTTP_REQUEST_TIMEOUT_MS (http/server-limits.ts): node
 * has already answered 408 on the socket and closed it. The client's doing as much as a reset.
 */
export const REQUEST_TIMEOUT = 408;

export class ClientAbortError extends Error {
  constructor(
    readonly reason: unknown,
    /** 499, or 408 when node's request timeout cut the body off. */
    readonly status: typeof CLIENT_CLOSED_REQUEST | typeof REQUEST_TIMEOUT = CLIENT_CLOSED_REQUEST,
  ) {
    super(status === REQUEST_TIMEOUT ? "The request's body did not arrive in time" : "The client closed the connection before its request was read");
    this.name = "ClientAbortError";
  }
}

/** Codes and names Node gives a request stream whose connection went away. */
const CONNECTION_LOST_CODES = new Set(["ECONNRESET", "ECONNABORTED", "EPIPE", "ERR_STREAM_PREMATURE_CLOSE", "ABORT_ERR"]);

function isConnectionLoss(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const { code, name, message } = err as { code?: unknown; name?: unknown; message?: unknown };
  return CONNECTION_LOST_CODES.has(String(code)) || name === "AbortError" || message === "aborted";
}

/** Node destroys the socket with this error when a request is not received whole in time. */
function cutOffByRequestTimeout(incoming: IncomingMessage): boolean {
  return (incoming.socket?.errored as { code?: unknown } | null | undefined)?.code === "ERR_HTTP_REQUEST_TIMEOUT";
}

/**
 * The failure as a ClientAbortError when it is the client's body that stopped arriving, whoever
 * was reading it (the body limit reads a chunked body itself, validate.ts a framed one): under
 * node:http, a connection-loss error while node's request is still incomplete (its connection was
 * reset or closed, or node's request timeout cut it off: then 408). Anything else, and any error of
 * a request that arrived whole (an outbound call's ECONNRESET, a bug), stays what it is.
 */
export function clientAbortOf(c: Context, err: unknown): ClientAbortError | undefined {
  if (err instanceof ClientAbortError) return err;
  const incoming = nodeRequest(c);
  if (!incoming || incoming.complete || !isConnectionLoss(err)) return undefined;
  return new ClientAbortError(err, cutOffByRequestTimeout(incoming) ? REQUEST_TIMEOUT : CLIENT_CLOSED_REQUEST);
}

/**
 * The request body as text. A body that stops arriving because the client's connection went away
 * (a reset mid-body: Node's "aborted", ECONNRESET) or took too long becomes a ClientAbortError;
 * anything else (the body limit's 413, a bug) is thrown as it is.
 */
export async function readRequestText(c: Context): Promise<string> {
  try {
    return await c.req.text();
  } catch (err) {
    // In-process requests (tests) have no node request: their own signal or the error tells.
    throw clientAbortOf(c, err) ?? (isConnectionLoss(err) || c.req.raw.signal.aborted ? new ClientAbortError(err) : err);
  }
}
