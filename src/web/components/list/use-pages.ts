import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import { pageParam } from "./url-params";

/** What the Pager needs: where the list is and how to move. */
export interface PagerControls {
  /** 1-based. */
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/** A list's position in the URL, and the Pager's controls given what the list knows (`Known`). */
interface ListPages<Known> {
  /** The URL parameter holding it (see pageParam). */
  param: string;
  page: number;
  /** Back to the first page without a history entry (after an action that changes what the pages hold). */
  reset: () => void;
  controls: (known: Known) => PagerControls;
}

/** The part of a TanStack query result a keyset pager reads: the answer's nextCursor, and whether it is a placeholder. */
export interface KeysetQueryState {
  data?: { nextCursor: string | null } | undefined;
  isPlaceholderData: boolean;
}

export interface KeysetPages extends ListPages<KeysetQueryState> {
  /** The cursor of the page on screen (null on the first page): put it in the query key and the call. */
  cursor: string | null;
}

/** Page-numbered lists: controls once the number of pages is known. */
export type NumberedPages = ListPages<number>;

/** The values of one URL parameter, and a writer that changes them (a page turn adds a history entry). */
function useParamValues(param: string): [string[], (change: (values: string[]) => string[], push: boolean) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const write = useCallback(
    (change: (values: string[]) => string[], push: boolean) =>
      setSearchParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          const values = change(prev.getAll(param));
          next.delete(param);
          for (const v of values) next.append(param, v);
          return next;
        },
        { replace: !push },
      ),
    [param, setSearchParams],
  );
  return [searchParams.getAll(param), write];
}

/**
 * Keyset pages (the server answers a page and the `nextCursor` of the one after): the cursors of
 * the pages turned so far are a stack in the URL (`?cursor=a&cursor=b`), so Previous pops, Next
 * pushes, and back, forward and reload keep the page.
 */
export function useKeysetPages(list?: string): KeysetPages {
  const param = pageParam("cursor", list);
  const [stack, write] = useParamValues(param);
  const cursor = stack.at(-1) ?? null;
  const page = stack.length + 1;
  return useMemo(
    () => ({
      param,
      cursor,
      page,
      reset: () => write(() => [], false),
      controls: ({ data, isPlaceholderData }) => {
        const nextCursor = data?.nextCursor ?? null;
        return {
          page,
          hasPrevious: page > 1,
          // A placeholder is the page before's answer: its cursor is not this page's.
          hasNext: nextCursor !== null && !isPlaceholderData,
          onPrevious: () => write((s) => s.slice(0, -1), true),
          onNext: () => nextCursor !== null && write((s) => [...s, nextCursor], true),
        };
      },
    }),
    [param, cursor, page, write],
  );
}

/** Page-numbered lists (`?page=3`, or `{list}.page`): the same pager and URL rules as keyset pages. */
export function useNumberedPages(list?: string): NumberedPages {
  const param = pageParam("page", list);
  const [values, write] = useParamValues(param);
  const page = Math.max(1, Number.parseInt(values[0] ?? "1", 10) || 1);
  return useMemo(() => {
    const go = (to: number, push: boolean) => write(() => (to <= 1 ? [] : [String(to)]), push);
    return {
      param,
      page,
      reset: () => go(1, false),
      controls: (pageCount) => ({
        page,
        hasPrevious: page > 1,
        hasNext: page < Math.max(1, pageCount),
        onPrevious: () => go(page - 1, true),
        onNext: () => go(page + 1, true),
      }),
    };
  }, [param, page, write]);
}

/** How many pages `total` rows make at `pageSize` a page (at least 1). */
export const pageCountOf = (total: number, pageSize: number): number => Math.max(1, Math.ceil(total / pageSize));
