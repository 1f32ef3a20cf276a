import type { Context } from "hono";
import type { z } from "zod";
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

/** Every input at fault with its first message; an issue about the whole input is named "input". */
export function zodErrorFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const { path, message } of issueFields(error)) fields[path || "input"] ??= message;
  return fields;
}

/**
 * The path of the first string holding a NUL character, if any. NUL cannot be stored in a
 * PostgreSQL text value and ends an SQLite FTS query early, so no input may carry one.
 */
function findNulCharacter(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (depth > 32 || value === null || typeof value !== "object") return null;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key.includes("\u0000")) return [...path, "(key)"];
    const found = findNulCharacter(v, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const nulAt = findNulCharacter(value);
  if (nulAt) throw invalidField(nulAt.join(".") || "input", "must not contain NUL characters");
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpError(400, "invalid_input", describeZodError(result.error), {}, zodErrorFields(result.error));
  return result.data;
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
