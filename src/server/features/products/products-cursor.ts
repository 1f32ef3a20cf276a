import { decodeKeysetArray } from "../../platform/http/keyset-cursor.ts";
import { invalidField } from "../../platform/http/http-error.ts";

/**
 * Keyset positions of the product list (opaque to clients: base64url of a small JSON array): the
 * last row's sort value and id, in a given order (column and direction). Every list, searched or
 * not, pages this way (docs/product.md §16.2).
 */
export type ProductCursor = { sort: { column: string; descending: boolean }; value: string | number; id: string };

export function encodeProductCursor(cursor: ProductCursor): string {
  const value = ["s", cursor.sort.column, cursor.sort.descending ? 1 : 0, cursor.sort.column === "created_at" ? String(cursor.value) : Number(cursor.value), cursor.id];
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const isId = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length <= 100;

/**
 * Decodes a cursor for the list's current order; anything that is not one of ours, or was made
 * for another order, is a 400 naming `cursor`.
 */
export function decodeProductCursor(text: string, sort: { column: string; descending: boolean }): ProductCursor {
  const v = decodeKeysetArray(text);
  if (v) {
    if (v[0] === "s" && v.length === 5 && v[1] === sort.column && v[2] === (sort.descending ? 1 : 0) && isId(v[4])) {
      const value: unknown = v[3];
      const valid = sort.column === "created_at" ? typeof value === "string" && ISO_TIME.test(value) : typeof value === "number" && Number.isSafeInteger(value);
      if (valid) return { sort, value: value as string | number, id: v[4] };
    }
  }
  throw invalidField("cursor", "not a valid cursor for this order (use nextCursor from a previous answer with the same sort)");
}
