import { Link } from "react-router";
import type { AnalyticsPeriod, TopProduct, TopVendor } from "@contract/analytics";
import { type Column, DataTable } from "@web/components/list";
import { TitledCard } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatCount, formatCurrency } from "@web/lib/format";
import { useTopProducts, useTopVendors } from "./analytics-api";

const NONE = "No sales in the selected period";
const linkClasses = "text-blue-700 hover:underline";

/** The figures both lists end with. */
const figureColumns = <T extends { revenue: number; orders: number; units: number }>(): Array<Column<T>> => [
  { id: "revenue", header: "Revenue", className: "text-right", cell: (r) => formatCurrency(r.revenue) },
  { id: "orders", header: "Orders", className: "text-right", cell: (r) => formatCount(r.orders) },
  { id: "units", header: "Units", className: "text-right", cell: (r) => formatCount(r.units) },
];
const rankColumn = { id: "rank", header: "#", className: "w-8", cell: (r: { rank: number }) => r.rank };
const artistLink = (r: { vendorId: string; vendorName: string }) => (
  <Link to={`/vendors/${r.vendorId}`} className={linkClasses}>
    {r.vendorName}
  </Link>
);

const productColumns: Array<Column<TopProduct>> = [
  rankColumn,
  {
    id: "product",
    header: "Product",
    cell: (p) => (
      <Link to={`/products?product=${encodeURIComponent(p.productId)}`} className={linkClasses}>
        {p.productName}
      </Link>
    ),
  },
  { id: "artist", header: "Artist", cell: artistLink },
  ...figureColumns<TopProduct>(),
];
const vendorColumns: Array<Column<TopVendor>> = [rankColumn, { id: "artist", header: "Artist", cell: artistLink }, ...figureColumns<TopVendor>()];

function TopTable<T>({ title, columns, rows, rowKey, error }: { title: string; columns: Array<Column<T>>; rows: T[] | undefined; rowKey: (row: T) => string; error: unknown }) {
  return (
    <TitledCard title={title}>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {apiErrorMessage(error)}
        </p>
      ) : !rows ? (
        <Spinner label={`Loading ${title}`} />
      ) : rows.length === 0 ? (
        <p className="text-sm text-gray-600">{NONE}</p>
      ) : (
        <DataTable label={title} columns={columns} rows={rows} rowKey={rowKey} />
      )}
    </TitledCard>
  );
}

/** 'Top Products' and 'Top Artists' of the period by revenue (docs/product.md §18.2), internal stores left out. */
export function TopListsCards({ days, enabled }: { days: AnalyticsPeriod; enabled: boolean }) {
  const products = useTopProducts(days, enabled);
  const vendors = useTopVendors(days, enabled);
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      <TopTable title="Top Products" columns={productColumns} rows={products.data?.products} rowKey={(p) => p.productId} error={products.error} />
      <TopTable title="Top Artists" columns={vendorColumns} rows={vendors.data?.vendors} rowKey={(v) => v.vendorId} error={vendors.error} />
    </div>
  );
}
