import type { ReactNode } from "react";
import { Link } from "react-router";
import type { AnalyticsPeriod } from "@contract/analytics";
import { TitledCard } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatCount, formatCurrency } from "@web/lib/format";
import { useTopProducts, useTopVendors } from "./analytics-api";

const NONE = "No sales in the selected period";
const linkClasses = "text-blue-700 hover:underline";

interface Row {
  key: string;
  rank: number;
  name: ReactNode;
  by?: ReactNode;
  revenue: number;
  orders: number;
  units: number;
}

function TopTable({ title, label, rows, error, byHeader }: { title: string; label: string; rows: Row[] | undefined; error: unknown; byHeader?: string }) {
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
        <Table aria-label={title}>
          <TableHeader>
            <TableRow>
              <TableHead className="w-8">#</TableHead>
              <TableHead>{label}</TableHead>
              {byHeader ? <TableHead>{byHeader}</TableHead> : null}
              <TableHead className="text-right">Revenue</TableHead>
              <TableHead className="text-right">Orders</TableHead>
              <TableHead className="text-right">Units</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.key}>
                <TableCell>{r.rank}</TableCell>
                <TableCell>{r.name}</TableCell>
                {byHeader ? <TableCell>{r.by}</TableCell> : null}
                <TableCell className="text-right">{formatCurrency(r.revenue)}</TableCell>
                <TableCell className="text-right">{formatCount(r.orders)}</TableCell>
                <TableCell className="text-right">{formatCount(r.units)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
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
      <TopTable
        title="Top Products"
        label="Product"
        byHeader="Artist"
        error={products.error}
        rows={products.data?.products.map((p) => ({
          key: p.productId,
          rank: p.rank,
          name: (
            <Link to={`/products?product=${encodeURIComponent(p.productId)}`} className={linkClasses}>
              {p.productName}
            </Link>
          ),
          by: (
            <Link to={`/vendors/${p.vendorId}`} className={linkClasses}>
              {p.vendorName}
            </Link>
          ),
          revenue: p.revenue,
          orders: p.orders,
          units: p.units,
        }))}
      />
      <TopTable
        title="Top Artists"
        label="Artist"
        error={vendors.error}
        rows={vendors.data?.vendors.map((v) => ({
          key: v.vendorId,
          rank: v.rank,
          name: (
            <Link to={`/vendors/${v.vendorId}`} className={linkClasses}>
              {v.vendorName}
            </Link>
          ),
          revenue: v.revenue,
          orders: v.orders,
          units: v.units,
        }))}
      />
    </div>
  );
}
