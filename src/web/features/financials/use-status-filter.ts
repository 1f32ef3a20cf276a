import { type KeysetPages, useKeysetPages, useUrlParams } from "@web/components/list";

export interface StatusFilter<S extends string> {
  /** The status chosen, or "all". */
  status: S | "all";
  /** Chooses a status ("all": none); this list goes back to its first page, the other keeps its own. */
  choose: (value: string) => void;
  /** The list's pages (`{list}.cursor` in the URL). */
  pages: KeysetPages;
}

/**
 * One of the screen's two lists (balances, payouts): its status filter (`{list}.status`) and its
 * pages (`{list}.cursor`) live in the URL under its own name, so changing one list's filter leaves
 * the other's page where it was.
 */
export function useStatusFilter<S extends string>(list: string, labels: Readonly<Record<S, string>>): StatusFilter<S> {
  const [params, update] = useUrlParams();
  const pages = useKeysetPages(list);
  const param = `${list}.status`;
  const value = params.get(param);
  const status = value !== null && Object.hasOwn(labels, value) ? (value as S) : "all";
  const choose = (next: string) => update({ [param]: next === "all" ? null : next }, { resetPages: [pages.param] });
  return { status, choose, pages };
}
