import type { Context } from "hono";
import { z } from "zod";
import type { SignedBody } from "../../../contract/endpoint.ts";
import { readRequestText } from "./client-abort.ts";
import { requestHeader } from "./exchange-headers.ts";
import { HttpError, badRequest, invalidField } from "./http-error.ts";

/** What a 400 says of a key the schema does not know (request bodies refuse them: src/contract). */
export const UNKNOWN_FIELD_MESSAGE = "not a field of this request";

/**
 * Each input at fault with its message, in order. An unknown key is an input of its own (named by
 * its path, so `{"dry_run": true}` names `dry_run`), however many one issue lists.
 */
function issueFields(error: z.ZodError): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: [...path, key].join("."), message: UNKNOWN_FIELD_MESSAGE });
    } else {
      out.push({ path: path.join("."), message: issue.message });
    }
  }
  return out;
}

/** "field: message" for the first zod issue, so a 400 names the field at fault. */
export function describeZodError(error: z.ZodError): string {
  const first = issueFields(error)[0];
  if (!first) return "Invalid input";
  return first.path ? `${first.path}: ${first.message}` : first.message;
}

/** Every input at fault with its first message (named under `under`, if given); an issue about the whole input is named "input". */
export function zodErrorFields(error: z.ZodError, under?: string): Record<string, string> {
  // A Map, then own properties: a key named `constructor` or `__proto__` is a field like any other.
  const fields = new Map<string, string>();
  for (const { path, message } of issueFields(error)) {
    const name = fieldName(path, under);
    if (!fields.has(name)) fields.set(name, message);
  }
  return Object.fromEntries(fields);
}

/** A UTF-16 surrogate without its pair (with the u flag a pair is one code point, never matched). */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Why a text cannot be taken as it is, or null when it can. PostgreSQL cannot store a NUL (and it
 * ends an SQLite FTS query early); a lone surrogate (only a JSON escape such as `\ud800` can make
 * one) would be written by both databases as U+FFFD, so what is read back is not what was sent.
 * Every input is held to it, and so is the text a cursor decodes to (keyset-cursor.ts).
 */
export function unstorableTextProblem(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain NUL characters";
  const lone = LONE_SURROGATE.exec(text);
  return lone ? `must not contain unpaired surrogate characters (found U+${lone[0].charCodeAt(0).toString(16).toUpperCase()})` : null;
}

interface InputProblem {
  path: string[];
  message: string;
  /** A lone surrogate: refused after the schema, so a field's own rule about its characters (a person's name) speaks first. */
  schemaFirst: boolean;
}

/**
 * The first string or key of an input that no field can take: text a database cannot keep
 * (unstorableTextProblem), or a key named `__proto__`, which no schema has and which a record
 * (an export's filters) would otherwise drop without a word.
 */
function findInputProblem(value: unknown, path: string[] = [], depth = 0): InputProblem | null {
  if (typeof value === "string") {
    const message = unstorableTextProblem(value);
    return message ? { path, message, schemaFirst: !value.includes("\u0000") } : null;
  }
  if (depth > 32 || value === null || typeof value !== "object") return null;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === "__proto__") return { path: [...path, key], message: UNKNOWN_FIELD_MESSAGE, schemaFirst: false };
    const keyProblem = unstorableTextProblem(key);
    if (keyProblem) return { path: [...path, "(key)"], message: keyProblem, schemaFirst: false };
    const found = findInputProblem(v, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Parses an input with its schema; any failure is a 400 naming each input at fault. `under` is
 * where the value sits in the request when it is only a part of it (an export's `filters`), so
 * the fields are named as the client sent them (`filters.state`).
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, under?: string): z.infer<S> {
  const problem = findInputProblem(value);
  if (problem && !problem.schemaFirst) throw invalidField(fieldName(problem.path.join("."), under), problem.message);
  const result = schema.safeParse(value);
  if (!result.success) throw schemaError(result.error, under);
  if (problem) throw invalidField(fieldName(problem.path.join("."), under), problem.message);
  return result.data;
}

/** An input's name in the request: its path, under `under` when the value is a part of the request. */
function fieldName(path: string, under: string | undefined): string {
  if (!under) return path || "input";
  return path && path !== "input" ? `${under}.${path}` : under;
}

function schemaError(error: z.ZodError, under: string | undefined): HttpError {
  if (!under) return new HttpError(400, "invalid_input", describeZodError(error), {}, zodErrorFields(error));
  const fields = zodErrorFields(error, under);
  const [first] = Object.entries(fields);
  return new HttpError(400, "invalid_input", first ? `${first[0]}: ${first[1]}` : "Invalid input", {}, fields);
}

/**
 * Reads a JSON body strictly: wrong Content-Type -> 415, unparsable -> 400, schema mismatch -> 400
 * naming the field. An empty body is treated as `{}` so optional-only bodies may be omitted.
 */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  // A connection reset mid-body is the client's doing (http/client-abort.ts), never a 5xx.
  const text = await readRequestText(c);
  let value: unknown = {};
  if (text.trim() !== "") {
    const contentType = requestHeader(c, "content-type") ?? "";
    if (!/^application\/([a-z.+-]*\+)?json\b/i.test(contentType)) {
      throw new HttpError(415, "unsupported_media_type", "Content-Type must be application/json");
    }
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest("Request body is not valid JSON", "invalid_json");
    }
  }
  return parseWith(schema, value);
}

/**
 * A signed body (src/contract/endpoint.ts `signedBody`): the text exactly as received and the named
 * headers, for the handler to verify before it parses anything. It must say it is JSON (415
 * otherwise), as every body here; its content is the handler's to check.
 */
export async function readSignedBody(c: Context, headerNames: readonly string[]): Promise<SignedBody> {
  const text = await readRequestText(c);
  const contentType = requestHeader(c, "content-type") ?? "";
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(contentType)) throw new HttpError(415, "unsupported_media_type", "Content-Type must be application/json");
  const headers: Record<string, string | undefined> = {};
  for (const name of headerNames) headers[name.toLowerCase()] = requestHeader(c, name.toLowerCase());
  return { text, headers };
}

/** The body of an endpoint that takes none: nothing, or an empty object. */
const NO_BODY = z.strictObject({});

/**
 * For an endpoint defined without a body (src/contract/endpoint.ts): what a client sends is read by
 * the rules of every body, so only nothing or `{}` gets through; a key is a 400 naming it (it is
 * not a field of this request, e.g. `{"confirm": false}` on a delete), unreadable JSON a 400 and
 * another content type a 415, all before the handler runs.
 */
export async function refuseBody(c: Context): Promise<undefined> {
  await readJsonBody(c, NO_BODY);
  return undefined;
}

/** Validates the query string; repeated parameters are rejected rather than silently picking one. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const all = c.req.queries();
  const single: Record<string, string> = {};
  for (const [key, values] of Object.entries(all)) {
    if (values.length > 1) throw invalidField(key, "must be given once");
    single[key] = values[0] ?? "";
  }
  return parseWith(schema, single);
}
