import { useCallback } from "react";
import { useUrlParams } from "./url-params";

export type SortDirection = "ascending" | "descending";

export interface SortState {
  /** The column's sort key, or null when the server's default order applies. */
  key: string | null;
  direction: SortDirection;
  /** Sort by `key`: ascending first, the other way on a second click. */
  toggle: (key: string) => void;
}

/** Reads `?sort=key` (ascending) or `?sort=-key` (descending). */
export function parseSort(value: string | null): { key: string | null; direction: SortDirection } {
  if (!value || value === "-") return { key: null, direction: "ascending" };
  return value.startsWith("-") ? { key: value.slice(1), direction: "descending" } : { key: value, direction: "ascending" };
}

/**
 * The sort in the URL (`sort`, or `{list}.sort`): pass it to the list call (the server sorts) and to
 * DataTable (sortable headers). A new sort starts again at the first page.
 */
export function useSortParam(list?: string): SortState {
  const param = list ? `${list}.sort` : "sort";
  const [searchParams, update] = useUrlParams();
  const { key, direction } = parseSort(searchParams.get(param));
  const toggle = useCallback((column: string) => update({ [param]: column === key && direction === "ascending" ? `-${column}` : column }), [update, param, key, direction]);
  return { key, direction, toggle };
}

/** The sort as the server names it (`key`, or `-key` descending) when `allowed` holds it; null for the server's default order. */
export function serverSort<S extends string>(sort: Pick<SortState, "key" | "direction">, allowed: readonly S[]): S | null {
  if (!sort.key) return null;
  const value = `${sort.direction === "descending" ? "-" : ""}${sort.key}`;
  return allowed.find((s) => s === value) ?? null;
}
