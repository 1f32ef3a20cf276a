import { invalidField } from "../platform/http/http-error.ts";

/** Keyset position in the newest-first order (created_at desc, id desc): the last row a page showed. */
export interface ErrorLogCursor {
  createdAt: string;
  id: string;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** Opaque to clients: base64url of a small JSON array, so its format can change without an API change. */
export function encodeCursor(cursor: ErrorLogCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id]), "utf8").toString("base64url");
}

/** Decodes a cursor from the query string; anything that is not one of ours is a 400 naming `cursor`. */
export function decodeCursor(text: string): ErrorLogCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    value = null;
  }
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === "string" &&
    ISO_TIME.test(value[0]) &&
    typeof value[1] === "string" &&
    value[1].length > 0 &&
    value[1].length <= 100
  ) {
    return { createdAt: value[0], id: value[1] };
  }
  throw invalidField("cursor", "not a valid cursor (use nextCursor from a previous answer)");
}
