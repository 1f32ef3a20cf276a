import { invalidField } from "./http-error.ts";
import { unstorableTextProblem } from "./validate.ts";

/**
 * The one keyset cursor of every list (docs/product.md §2.5): the last row a page showed, as the
 * values of the list's order (for example `[created_at, id]` or `[balance_cents, vendor_id]`).
 * Opaque to clients — base64url of a small JSON array — so its format can change without an API
 * change; O(limit) at any depth because each page seeks the order's index from that position.
 */

/** What each part of a cursor must be: text, a whole number, or an ISO-8601 UTC time. */
export type CursorPart = "string" | "number" | "time";
type PartValue<P extends CursorPart> = P extends "number" ? number : string;
export type CursorValues<T extends readonly CursorPart[]> = { -readonly [K in keyof T]: PartValue<T[K]> };

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
/** E-mail addresses (the staff list's order) reach 320 characters; ids and names stay well below. */
const MAX_TEXT = 320;

export function encodeKeyset(parts: ReadonlyArray<string | number>): string {
  return Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");
}

/**
 * The JSON array a cursor's text decodes to, or null when it is none. Its text parts are held to
 * the input rules (validate.ts): the client chose them, and a NUL in one would reach the
 * database as the seek position (PostgreSQL refuses it with a 500).
 */
export function decodeKeysetArray(text: string): unknown[] | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  for (const part of value) if (typeof part === "string" && unstorableTextProblem(part)) return null;
  return value;
}

/** The decoded parts, or null when the text is not a cursor of this shape. */
export function decodeKeyset<const T extends readonly CursorPart[]>(text: string, shape: T): CursorValues<T> | null {
  const value = decodeKeysetArray(text);
  if (!value || value.length !== shape.length) return null;
  for (const [i, kind] of shape.entries()) {
    const v: unknown = value[i];
    if (kind === "number" && !(typeof v === "number" && Number.isSafeInteger(v))) return null;
    if (kind !== "number" && !(typeof v === "string" && v.length > 0 && v.length <= MAX_TEXT)) return null;
    if (kind === "time" && !ISO_TIME.test(v as string)) return null;
  }
  return value as CursorValues<T>;
}

/** A cursor from the query string; anything that is not one of ours is a 400 naming `cursor`. */
export function readKeyset<const T extends readonly CursorPart[]>(text: string, shape: T): CursorValues<T> {
  const values = decodeKeyset(text, shape);
  if (!values) throw invalidField("cursor", "not a valid cursor (use nextCursor from a previous answer)");
  return values;
}

/** The position in the most common order, newest first (created_at desc, id desc). */
export interface NewestFirstPosition {
  createdAt: string;
  id: string;
}

export const encodeCursor = (position: NewestFirstPosition): string => encodeKeyset([position.createdAt, position.id]);

export function decodeCursor(text: string): NewestFirstPosition {
  const [createdAt, id] = readKeyset(text, ["time", "string"]);
  return { createdAt, id };
}

/**
 * One page of a keyset list from `rows` read with `limit + 1`: the first `limit` rows, and the
 * cursor after the last of them when another row follows (null on the last page).
 */
export function keysetPage<R>(rows: R[], limit: number, cursorOf: (last: R) => string): { page: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}
