import { type Column, DataTable, type ListQuery, ListState, type NumberedPages, Pager, pageCountOf } from "@web/components/list";
import { Card, CardContent } from "@web/components/ui/card";
import { formatCount } from "@web/lib/format";
import { VENDOR_TAB_PAGE_SIZE } from "../vendors-api";

interface PagedTabProps<D extends { total: number }, T> {
  query: ListQuery<D>;
  rowsOf: (data: D) => readonly T[];
  columns: ReadonlyArray<Column<T>>;
  rowKey: (row: T) => string;
  pages: NumberedPages;
  loadingLabel: string;
  emptyText: string;
  pagerLabel: string;
}

/** A tab listing one page of the vendor's rows (products, sales): 'Page {n} of {pages} · {total} in all' (docs/product.md §4.4). */
export function PagedTab<D extends { total: number }, T>({ query, rowsOf, columns, rowKey, pages, loadingLabel, emptyText, pagerLabel }: PagedTabProps<D, T>) {
  return (
    <Card>
      <CardContent className="pt-6">
        <ListState
          inline
          query={query}
          isEmpty={(data) => rowsOf(data).length === 0}
          loadingLabel={loadingLabel}
          emptyText={emptyText}
          footer={(data) => {
            const pageCount = pageCountOf(data.total, VENDOR_TAB_PAGE_SIZE);
            return <Pager label={pagerLabel} summary={`Page ${pages.page} of ${pageCount} · ${formatCount(data.total)} in all`} {...pages.controls(pageCount)} />;
          }}
        >
          {(data) => <DataTable columns={columns} rows={rowsOf(data)} rowKey={rowKey} busy={query.isFetching} />}
        </ListState>
      </CardContent>
    </Card>
  );
}
