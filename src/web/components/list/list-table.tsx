import { DataTable, type DataTableProps } from "./data-table";
import { ListState, type ListStateProps } from "./list-state";

export interface ListTableProps<D, T> extends Omit<ListStateProps<D>, "isEmpty" | "children">, Omit<DataTableProps<T>, "rows" | "busy"> {
  /** The rows of an answer: none shows the empty text, some the table. */
  rowsOf: (data: D) => readonly T[];
}

/**
 * A list screen's (or card's) table in its four states: ListState around a DataTable of the
 * answer's rows, busy while the query refetches. What differs between lists is only what is passed.
 */
export function ListTable<D, T>({ rowsOf, label, columns, rowKey, rowName, rowProps, framed, sort, selection, ...state }: ListTableProps<D, T>) {
  const table = { label, columns, rowKey, rowName, rowProps, framed, sort, selection };
  return (
    <ListState {...state} isEmpty={(data) => rowsOf(data).length === 0}>
      {(data) => <DataTable {...table} rows={rowsOf(data)} busy={state.query.isFetching} />}
    </ListState>
  );
}
