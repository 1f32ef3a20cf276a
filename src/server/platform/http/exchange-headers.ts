import type { Context } from "hono";
import { IncomingMessage, ServerResponse } from "node:http";

/**
 * Reading a request's headers and adding headers to its answer without web `Headers` objects when
 * node:http serves the app (serve.ts through @hono/node-server; in-process requests in tests go
 * through Hono's own objects). `c.req.header()` builds a full `Headers` copy of the incoming
 * headers on first use, and a header set on the answer after it was made turns its plain header
 * record into a `Headers` that is sorted again when written: together ~4 KB of garbage and a tenth
 * of a cached answer's CPU under load.
 */

interface NodeBindings {
  incoming?: unknown;
  outgoing?: unknown;
}

const bindings = (c: Context): NodeBindings | undefined => c.env as NodeBindings | undefined;

/** A request header by its name (any case), as `c.req.header(name)` answers it. */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = bindings(c)?.incoming;
  if (!(incoming instanceof IncomingMessage)) return c.req.header(name);
  // node joins repeated headers with ", " as Headers.get does (set-cookie aside, never read here).
  const value = incoming.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Every request header by its name (lower case), for the error log's redacted copy of them. */
export function requestHeaders(c: Context): Record<string, string> {
  const incoming = bindings(c)?.incoming;
  if (!(incoming instanceof IncomingMessage)) return c.req.header();
  const all: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) all[name] = Array.isArray(value) ? value.join(", ") : value;
  return all;
}

/**
 * Sets a header on this request's answer, whichever answer it turns out to be (the handler's, an
 * error's, a 404); a value the handler gives the same header itself wins. Under node:http it goes
 * on node's response and is written with the status line (node merges it with the answer's own
 * headers, which take precedence); in-process it is one of Hono's prepared headers.
 */
export function setAnswerHeader(c: Context, name: string, value: string): void {
  const outgoing = bindings(c)?.outgoing;
  if (outgoing instanceof ServerResponse && !outgoing.headersSent) presetAnswerHeader(outgoing, name, value);
  else c.header(name, value);
}

/**
 * Implemented by the server's response class (security-headers.ts): takes a header for whichever
 * answer comes and writes it with the answer's own header record. Node's `setHeader` would start the
 * response's header store, and a response with one makes `writeHead` copy every header of the
 * answer into it through `setHeader` again (validated twice, an array each): ~1.6 KB of garbage
 * per cached answer, and 60 → 55 µs of its server CPU.
 */
export const PRESET_ANSWER_HEADER = Symbol("preset answer header");

/** Sets a header on a node response before its answer is written; a later value for the same name wins, the answer's own wins over both. */
export function presetAnswerHeader(outgoing: ServerResponse, name: string, value: string): void {
  const preset = (outgoing as ServerResponse & { [PRESET_ANSWER_HEADER]?: (name: string, value: string) => void })[PRESET_ANSWER_HEADER];
  if (preset) preset.call(outgoing, name, value);
  else outgoing.setHeader(name, value);
}

/** node's request object of this request when node:http serves the app. */
export function nodeRequest(c: Context): IncomingMessage | undefined {
  const incoming = bindings(c)?.incoming;
  return incoming instanceof IncomingMessage ? incoming : undefined;
}

/** node's response object of this request when node:http serves the app. */
export function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = bindings(c)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}
