import { useMemo } from "react";
import { ORDER_SORTS, ORDER_STATUS_FILTERS, ORDERS_EXPORT_KIND, type OrderStatusFilter } from "@contract/orders";
import { ListTable, Pager, RefreshButton, serverSort, useKeysetPages, useSortParam, useUrlParams, useUrlSearch } from "@web/components/list";
import { PageHeader } from "@web/components/ui/page-header";
import { apiErrorMessage } from "@web/lib/api-client";
import { useCsvExport } from "@web/lib/download-export";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { orderColumns, orderLabel } from "./order-columns";
import { OrderDrawer } from "./order-drawer";
import { OrderFilterBar } from "./order-filters";
import { type OrderFilters, ordersQuery, useOrderList } from "./orders-api";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function readStatus(value: string | null): OrderStatusFilter | "all" {
  return (ORDER_STATUS_FILTERS as readonly string[]).includes(value ?? "") ? (value as OrderStatusFilter) : "all";
}
const readDay = (value: string | null) => (value !== null && DAY.test(value) ? value : "");

/**
 * The Orders screen (docs/product.md "Orders"): every storefront order line across artists,
 * searched by buyer e-mail or order id, filtered and sorted, paged by keyset with everything in
 * the URL; a line's amounts, timeline and sibling lines over the list (`?order=`). Read-only.
 */
export default function OrdersPage() {
  const [searchParams, update] = useUrlParams();
  const search = useUrlSearch();
  const pages = useKeysetPages();
  const sortState = useSortParam();
  const filters: OrderFilters = {
    search: search.search,
    status: readStatus(searchParams.get("status")),
    vendorId: searchParams.get("vendorId") ?? "",
    from: readDay(searchParams.get("from")),
    to: readDay(searchParams.get("to")),
  };
  // The table's sort (`?sort=amount`, `?sort=-created`) as the API names it; none is newest first.
  const sort = serverSort(sortState, ORDER_SORTS) ?? "newest";

  // docs/product.md §2.5: data loading starts 100 ms after the screen opens.
  const ready = useLoadDelay();
  // Until the URL catches up with a new search, ask for its first page.
  const list = useOrderList(filters, sort, search.settled ? pages.cursor : null, ready);
  const rows = useMemo(() => list.data?.orders ?? [], [list.data]);
  const csv = useCsvExport("Failed to export orders");
  const orderId = searchParams.get("order");

  const open = (id: string | null) => update({ order: id }, { resetPages: "none", push: id !== null });
  const vendorName = rows.find((o) => o.vendorId === filters.vendorId)?.vendorName;
  const filtered = Object.keys(ordersQuery(filters)).length > 0;

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <PageHeader title="Orders" description="Every order across artists: find a buyer's order, see what was paid, refunded and earned.">
        <RefreshButton query={list} />
      </PageHeader>

      <OrderFilterBar
        search={search}
        status={filters.status}
        vendorId={filters.vendorId}
        vendorName={vendorName}
        from={filters.from}
        to={filters.to}
        exporting={csv.exporting}
        onExport={() => csv.run(ORDERS_EXPORT_KIND, ordersQuery(filters))}
      />

      <ListTable
        query={list}
        rowsOf={(data) => data.orders}
        loadingLabel="Loading orders"
        errorTitle="Error Loading Orders"
        errorMessage={apiErrorMessage}
        emptyText={filtered ? "No orders match these filters." : "No orders yet."}
        footer={() => <Pager label="Order pages" summary={`Page ${pages.page}`} {...pages.controls(list)} />}
        framed
        label="Orders"
        columns={orderColumns((o) => open(o.id))}
        rowKey={(o) => o.id}
        rowName={(o) => `order ${orderLabel(o)}`}
        rowProps={(o) => ({ "data-testid": `order-row-${o.id}` })}
        sort={sortState}
      />

      <OrderDrawer orderId={orderId} onClose={() => open(null)} onOpen={(id) => update({ order: id }, { resetPages: "none" })} onOnlyVendor={(id) => update({ vendorId: id, order: null })} />
    </section>
  );
}
