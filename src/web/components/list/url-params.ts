import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { useCurrentSearch, useStillShown } from "@web/app/navigation";

/**
 * A list's position lives in the URL so back, forward and reload keep it: `cursor` (the keyset
 * stack, one value per page turned) or `page` (a page number), prefixed with the list's name on a
 * screen with several lists (`balances.cursor`). Any other parameter is a filter, a tab or a sort.
 */
export function pageParam(kind: "cursor" | "page", list?: string): string {
  return list ? `${list}.${kind}` : kind;
}

const PAGE_PARAM = /(^|\.)(cursor|page)$/;

/** Whether `key` holds a list's position (see pageParam). */
export const isPageParam = (key: string): boolean => PAGE_PARAM.test(key);

/** New values for parameters: a string sets it, null, undefined or "" removes it. */
export type ParamChanges = Record<string, string | null | undefined>;

export interface UpdateOptions {
  /**
   * Which lists go back to their first page: "all" (the default: a filter changed), "none", or the
   * position parameters to drop (a screen with several lists changing one list's filter).
   */
  resetPages?: "all" | "none" | readonly string[];
  /** Adds a history entry (back returns to the state before) instead of replacing the current one. */
  push?: boolean;
}

/** `prev` with `changes` applied and the chosen list positions dropped. */
export function applyParamChanges(prev: URLSearchParams, changes: ParamChanges, { resetPages = "all" }: UpdateOptions = {}): URLSearchParams {
  const next = new URLSearchParams(prev);
  if (resetPages === "all") {
    for (const key of [...next.keys()]) if (isPageParam(key)) next.delete(key);
  } else if (resetPages !== "none") {
    for (const key of resetPages) next.delete(key);
  }
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "") next.delete(key);
    else next.set(key, value);
  }
  return next;
}

/**
 * The URL's search parameters and one way to change them: filters, tabs and sorts change through
 * `update`, which by default sends every list on the screen back to its first page. Changes apply
 * to the URL as it is when `update` is called: a row opened a moment before a typed search settles
 * (its navigation still rendering) stays open.
 */
export function useUrlParams(): [URLSearchParams, (changes: ParamChanges, options?: UpdateOptions) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const stillShown = useStillShown();
  const currentSearch = useCurrentSearch();
  const update = useCallback(
    (changes: ParamChanges, options: UpdateOptions = {}) => {
      if (!stillShown()) return;
      const now = currentSearch();
      setSearchParams((rendered) => applyParamChanges(now === null ? rendered : new URLSearchParams(now), changes, options), { replace: !options.push });
    },
    [setSearchParams, stillShown, currentSearch],
  );
  return [searchParams, update];
}
