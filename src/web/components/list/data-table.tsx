import type { ReactNode } from "react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { cn } from "@web/lib/cn";
import type { RowSelection } from "./use-row-selection";
import type { SortState } from "./use-sort";

export interface Column<T> {
  /** Unique among the table's columns. */
  id: string;
  header: string;
  /** The header is read by screen readers only (e.g. 'Actions'). */
  hideHeader?: boolean;
  cell: (row: T) => ReactNode;
  /** Classes of the column's header and cells (alignment, width). */
  className?: string;
  /** The server's sort key: the header becomes a button that sets `?sort=` (needs DataTable's `sort`). */
  sortKey?: string;
}

export interface DataTableProps<T> {
  columns: ReadonlyArray<Column<T>>;
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Extra attributes of a row, e.g. its data-testid. */
  rowProps?: (row: T) => Record<`data-${string}`, string>;
  /** The table's accessible name. */
  label?: string;
  /** A refetch is under way (the rows on screen may be about to change). */
  busy?: boolean;
  /** A screen's main table: a bordered box of its own. Without it the table sits inside a card. */
  framed?: boolean;
  /** From useSortParam: columns with a sortKey get sortable headers. */
  sort?: SortState;
  /** From useRowSelection: a checkbox per row and a select-all checkbox, for bulk actions. */
  selection?: RowSelection;
  /** Names a row for its checkbox ('Select {name}'); the row key by default. */
  rowName?: (row: T) => string;
}

function SortHeader({ column, sort }: { column: Column<unknown> & { sortKey: string }; sort: SortState }) {
  const active = sort.key === column.sortKey;
  return (
    <TableHead className={column.className} aria-sort={active ? sort.direction : "none"}>
      <button
        type="button"
        className="inline-flex items-center gap-1 rounded font-medium hover:text-gray-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
        onClick={() => sort.toggle(column.sortKey)}
      >
        {column.header}
        <span aria-hidden="true" className={active ? "text-gray-900" : "text-gray-300"}>
          {active && sort.direction === "descending" ? "▼" : "▲"}
        </span>
      </button>
    </TableHead>
  );
}

function Header<T>({ column, sort }: { column: Column<T>; sort: SortState | undefined }) {
  if (column.sortKey && sort) return <SortHeader column={column as Column<unknown> & { sortKey: string }} sort={sort} />;
  return <TableHead className={column.className}>{column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}</TableHead>;
}

/**
 * The one table of every list screen: columns, rows, sortable headers (aria-sort, ?sort= in the
 * URL) and row selection ready for bulk actions. It scrolls sideways inside its box on small
 * screens. Loading, failure and empty states are ListState's; pages are the Pager's.
 */
export function DataTable<T>({ columns, rows, rowKey, rowProps, label, busy = false, framed = false, sort, selection, rowName = rowKey }: DataTableProps<T>) {
  const table = (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          {selection && (
            <TableHead className="w-10">
              <input
                type="checkbox"
                aria-label="Select all rows"
                checked={selection.allSelected}
                ref={(box) => {
                  if (box) box.indeterminate = selection.someSelected && !selection.allSelected;
                }}
                onChange={selection.toggleAll}
              />
            </TableHead>
          )}
          {columns.map((column) => (
            <Header key={column.id} column={column} sort={sort} />
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => {
          const key = rowKey(row);
          const selected = selection?.isSelected(key) ?? false;
          return (
            <TableRow key={key} {...rowProps?.(row)} data-selected={selection ? selected : undefined} className={cn(selected && "bg-blue-50")}>
              {selection && (
                <TableCell className="w-10">
                  <input type="checkbox" aria-label={`Select ${rowName(row)}`} checked={selected} onChange={() => selection.toggle(key)} />
                </TableCell>
              )}
              {columns.map((column) => (
                <TableCell key={column.id} className={column.className}>
                  {column.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
  if (!framed) return <div aria-busy={busy}>{table}</div>;
  return (
    <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white" aria-busy={busy}>
      {table}
    </div>
  );
}
