import type { ProductsSummary } from "@contract/products";
import { StatCard } from "@web/components/ui/stat-card";
import { formatCount } from "@web/lib/format";

/** The catalogue's summary cards (docs/product.md §16): counts by status (listings in review among them), added this week, vendors over the product limit. */
export function SummaryCards({ summary }: { summary: ProductsSummary | undefined }) {
  const value = (n: number | undefined) => (n === undefined ? "—" : formatCount(n));
  return (
    <div className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-7">
      <StatCard title="Total products" value={value(summary?.counts.total)} valueTestId="product-count-total" />
      <StatCard title="Active" value={value(summary?.counts.active)} description="Listed in their stores" valueTestId="product-count-active" />
      <StatCard title="Drafts" value={value(summary?.counts.draft)} description="Not listed by the artist" valueTestId="product-count-draft" />
      <StatCard title="Hidden" value={value(summary?.counts.hidden)} description="Taken down by an operator" valueTestId="product-count-hidden" />
      <StatCard title="In review" value={value(summary?.counts.pendingReview)} description="New listings waiting for review" valueTestId="product-count-review" />
      <StatCard title="Added this week" value={value(summary?.addedThisWeek)} description="Created in the last 7 days" valueTestId="product-count-week" />
      <StatCard
        title="Vendors over the limit"
        value={value(summary?.overLimit.vendors)}
        description={summary ? `More than ${formatCount(summary.overLimit.limit)} listed products` : undefined}
        valueTestId="product-count-over-limit"
      />
    </div>
  );
}
