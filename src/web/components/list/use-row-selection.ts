import { useCallback, useMemo, useState } from "react";

export interface RowSelection {
  /** The selected rows' ids, in the rows' order: what a bulk action acts on. */
  selectedIds: string[];
  isSelected: (id: string) => boolean;
  toggle: (id: string) => void;
  /** Selects every row on screen, or none when all are selected. */
  toggleAll: () => void;
  allSelected: boolean;
  someSelected: boolean;
  clear: () => void;
  /** How many rows on screen can be selected. */
  rowCount: number;
}

/**
 * Which of the rows on screen are selected, for bulk actions. The selection belongs to the rows it
 * was made on: another page, filter or refresh that changes the rows starts with none selected.
 */
export function useRowSelection(rowIds: readonly string[]): RowSelection {
  const rowsKey = rowIds.join("\n");
  const [state, setState] = useState<{ rowsKey: string; ids: ReadonlySet<string> }>({ rowsKey, ids: new Set() });
  const ids = useMemo(() => (state.rowsKey === rowsKey ? state.ids : new Set<string>()), [state, rowsKey]);

  const toggle = useCallback(
    (id: string) =>
      setState((s) => {
        const next = new Set(s.rowsKey === rowsKey ? s.ids : []);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return { rowsKey, ids: next };
      }),
    [rowsKey],
  );
  const allSelected = rowIds.length > 0 && rowIds.every((id) => ids.has(id));
  const toggleAll = useCallback(() => setState({ rowsKey, ids: new Set(allSelected ? [] : rowIds) }), [rowsKey, allSelected, rowIds]);
  const clear = useCallback(() => setState({ rowsKey, ids: new Set() }), [rowsKey]);

  return useMemo(
    () => ({
      selectedIds: rowIds.filter((id) => ids.has(id)),
      isSelected: (id: string) => ids.has(id),
      toggle,
      toggleAll,
      allSelected,
      someSelected: ids.size > 0,
      clear,
      rowCount: rowIds.length,
    }),
    [rowIds, ids, toggle, toggleAll, allSelected, clear],
  );
}

/**
 * The selection of the rows a list query shows (`idsOf` its answer; keep it stable), offered only
 * when `enabled`. A placeholder, the page before's answer while the next loads, offers none.
 */
export function useQueryRowSelection<D>(query: { data: D | undefined; isPlaceholderData: boolean }, idsOf: (data: D) => string[], enabled = true): RowSelection {
  const { data, isPlaceholderData } = query;
  const rowIds = useMemo(() => (enabled && data !== undefined && !isPlaceholderData ? idsOf(data) : []), [enabled, data, isPlaceholderData, idsOf]);
  return useRowSelection(rowIds);
}
