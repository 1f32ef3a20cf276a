import type { VendorSale as Sale } from "@contract/vendors";
import { type Column, useNumberedPages } from "@web/components/list";
import { formatCurrency, formatDate } from "@web/lib/format";
import { useVendorSales } from "../vendors-api";
import { PagedTab } from "./paged-tab";

const COLUMNS: ReadonlyArray<Column<Sale>> = [
  { id: "date", header: "Date", cell: (o) => formatDate(o.date) },
  { id: "product", header: "Product", cell: (o) => o.productName },
  { id: "items", header: "Items", cell: (o) => o.items },
  { id: "total", header: "Total", cell: (o) => formatCurrency(o.total) },
  { id: "fee", header: "Platform Fee", cell: (o) => formatCurrency(o.platformFee) },
  { id: "status", header: "Status", className: "capitalize", cell: (o) => o.status },
];

/** The vendor's orders of every status, newest first, 10 a page (docs/product.md §4.4); the page is in the URL (`sales.page`). */
export function SalesTab({ vendorId }: { vendorId: string }) {
  const pages = useNumberedPages("sales");
  const query = useVendorSales(vendorId, pages.page, true);
  return <PagedTab query={query} rowsOf={(d) => d.sales} columns={COLUMNS} rowKey={(o) => o.id} pages={pages} loadingLabel="Loading sales" emptyText="No sales yet" pagerLabel="Sales pages" />;
}
