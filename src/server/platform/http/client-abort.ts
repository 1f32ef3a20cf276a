import type { Context } from "hono";

/**
 * A request the client gave up on while sending it: the connection was reset (or closed) before
 * the body arrived. It is the client's doing, not an outage: nothing can be answered (the socket is
 * gone), nothing goes to error_logs, and the access line is a debug line (nginx calls the status
 * 499, "client closed request"). Only errors of the database clients are database outages
 * (http/database-errors.ts).
 */
export const CLIENT_CLOSED_REQUEST = 499;

export class ClientAbortError extends Error {
  constructor(readonly reason: unknown) {
    super("The client closed the connection before its request was read");
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

/**
 * The request body as text. A body that stops arriving because the client's connection went away
 * (a reset mid-body: Node's "aborted", ECONNRESET) becomes a ClientAbortError; anything else
 * (the body limit's 413, a bug) is thrown as it is.
 */
export async function readRequestText(c: Context): Promise<string> {
  try {
    return await c.req.text();
  } catch (err) {
    if (isConnectionLoss(err) || c.req.raw.signal.aborted) throw new ClientAbortError(err);
    throw err;
  }
}
