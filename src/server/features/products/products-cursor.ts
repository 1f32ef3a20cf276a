import { invalidField } from "../../platform/http/http-error.ts";

/**
 * Keyset positions of the product list (opaque to clients: base64url of a small JSON array).
 * - `sorted`: the last row's sort value and id, in a given order (column and direction);
 * - `walk`: a broad search walked newest first: the trigram table's key (SQLite), or created_at and
 *   id (PostgreSQL).
 */
export type ProductCursor = { mode: "sorted"; sort: { column: string; descending: boolean }; value: string | number; id: string } | { mode: "walk"; key?: number; value?: string; id?: string };

export function encodeProductCursor(cursor: ProductCursor): string {
  const value =
    cursor.mode === "sorted"
      ? ["s", cursor.sort.column, cursor.sort.descending ? 1 : 0, cursor.sort.column === "created_at" ? String(cursor.value) : Number(cursor.value), cursor.id]
      : cursor.key !== undefined
        ? ["k", cursor.key]
        : ["w", cursor.value, cursor.id];
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const isId = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length <= 100;

/**
 * Decodes a cursor for the list's current order; anything that is not one of ours, or was made
 * for another order, is a 400 naming `cursor`.
 */
export function decodeProductCursor(text: string, sort: { column: string; descending: boolean }): ProductCursor {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    v = null;
  }
  if (Array.isArray(v)) {
    if (v[0] === "s" && v.length === 5 && v[1] === sort.column && v[2] === (sort.descending ? 1 : 0) && isId(v[4])) {
      const value: unknown = v[3];
      const valid = sort.column === "created_at" ? typeof value === "string" && ISO_TIME.test(value) : typeof value === "number" && Number.isSafeInteger(value);
      if (valid) return { mode: "sorted", sort, value: value as string | number, id: v[4] };
    }
    if (v[0] === "k" && v.length === 2 && Number.isSafeInteger(v[1]) && sort.column === "created_at" && sort.descending) return { mode: "walk", key: v[1] as number };
    if (v[0] === "w" && v.length === 3 && typeof v[1] === "string" && ISO_TIME.test(v[1]) && isId(v[2]) && sort.column === "created_at" && sort.descending) {
      return { mode: "walk", value: v[1], id: v[2] };
    }
  }
  throw invalidField("cursor", "not a valid cursor for this order (use nextCursor from a previous answer with the same sort)");
}
