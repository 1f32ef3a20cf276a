import type { VendorDetail } from "@contract/vendors";
import { StatCard } from "@web/components/ui/stat-card";
import { formatCount, formatCurrency, formatDate } from "@web/lib/format";

/** The vendor's figures (docs/product.md §4.4, Overview). */
export function OverviewTab({ vendor }: { vendor: VendorDetail }) {
  const s = vendor.stats;
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard title="Products" value={formatCount(s.totalProducts)} />
      <StatCard title="Revenue" value={formatCurrency(s.revenue)} />
      <StatCard title="Member Since" value={formatDate(vendor.joinedDate)} />
      <StatCard title="Total Sales" value={formatCount(s.totalSales)} />
      <StatCard title="Average Order Value" value={formatCurrency(s.avgOrderValue)} />
      <StatCard title="Conversion Rate" value={`${s.conversionRate.toFixed(2)}%`} />
      <StatCard title="Last Sale" value={s.lastSaleDate ? formatDate(s.lastSaleDate) : "Never"} />
    </div>
  );
}
