import { type Column, DataTable, type ListQuery, ListState, Pager } from "@web/components/list";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { useCsvExport } from "@web/lib/download-export";
import { StatusSelect, type StatusSelectProps } from "./status-select";
import type { StatusFilter } from "./use-status-filter";

export interface ListCardProps<D extends { nextCursor: string | null }, T, S extends string> {
  title: string;
  description: string;
  filter: StatusFilter<S>;
  /** The status filter's control (its value and change come from `filter`). */
  select: Omit<StatusSelectProps<S>, "value" | "onChange">;
  /** 'Export … CSV': the export kind and the name of its status filter (docs/product.md §15.5). */
  csv: { label: string; kind: "balances" | "payouts"; filterName: string };
  query: ListQuery<D> & { isPlaceholderData: boolean };
  rowsOf: (data: D) => readonly T[];
  columns: ReadonlyArray<Column<T>>;
  rowKey: (row: T) => string;
  /** The table's and pager's names, and the words of the list's states. */
  words: { table: string; pager: string; loading: string; error: string; empty: string };
}

/**
 * One of the screen's lists (balances owed, payouts): title and count, a status filter, its CSV
 * export with the filter on screen, then the list's states, table and pages (docs/product.md §15.4).
 */
export function ListCard<D extends { nextCursor: string | null }, T, S extends string>({ title, description, filter, select, csv, query, rowsOf, columns, rowKey, words }: ListCardProps<D, T, S>) {
  const csvExport = useCsvExport("Export failed");
  const exportFilters = { [csv.filterName]: filter.status === "all" ? undefined : filter.status };
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <StatusSelect {...select} value={filter.status} onChange={filter.choose} />
          <Button variant="outline" onClick={() => csvExport.run(csv.kind, exportFilters)} disabled={csvExport.exporting}>
            {csv.label}
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        <ListState
          inline
          query={query}
          isEmpty={(data) => rowsOf(data).length === 0}
          loadingLabel={words.loading}
          errorTitle={words.error}
          emptyText={words.empty}
          footer={() => <Pager label={words.pager} {...filter.pages.controls(query)} />}
        >
          {(data) => <DataTable label={words.table} columns={columns} rows={rowsOf(data)} rowKey={rowKey} busy={query.isFetching} />}
        </ListState>
      </CardContent>
    </Card>
  );
}
