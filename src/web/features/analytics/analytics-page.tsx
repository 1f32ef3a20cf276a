import { useSearchParams } from "react-router";
import type { AnalyticsPeriod, AnalyticsResponse } from "@contract/analytics";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { type Column, DataTable } from "@web/components/list";
import { formatCurrency, formatDate } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { useAnalytics } from "./analytics-api";
import { DailyBreakdownExport } from "./daily-breakdown-export";
import { averageProductsPerArtist, BREAKDOWN_ROWS, isEmptyPeriod, PERIODS, periodFromParam, periodTotals } from "./analytics-figures";
import { StatCard } from "@web/components/ui/stat-card";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { EMPTY_TEXT, RevenueCard } from "./revenue-card";
import { TopListsCards } from "./top-lists-cards";

const breakdownColumns: Array<Column<AnalyticsResponse["metrics"][number]>> = [
  // The day is a UTC date: format it as such, not shifted into the viewer's zone.
  { id: "date", header: "Date", cell: (m) => formatDate(`${m.date}T12:00:00Z`) },
  { id: "revenue", header: "Revenue", className: "text-right", cell: (m) => formatCurrency(m.total_revenue) },
  { id: "orders", header: "Orders", className: "text-right", cell: (m) => m.total_orders },
  { id: "fees", header: "Fees", className: "text-right", cell: (m) => formatCurrency(m.total_fees) },
];

/** Analytics (docs/product.md §6): period buttons (in the URL as ?days=), cards, chart, statistics, daily breakdown. */
export default function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const days = periodFromParam(params.get("days"));
  const ready = useLoadDelay();
  const analytics = useAnalytics(days, ready);

  const choose = (p: AnalyticsPeriod) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set("days", String(p));
      return next;
    });

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="page-title" className="text-2xl font-bold">
          Analytics
        </h1>
        <div role="group" aria-label="Period" className="flex gap-2">
          {PERIODS.map((p) => (
            <Button key={p} variant={p === days ? "default" : "outline"} aria-pressed={p === days} onClick={() => choose(p)}>
              {p} days
            </Button>
          ))}
        </div>
      </div>
      {analytics.isError ? (
        <LoadErrorCard title="Failed to load analytics" message={analytics.error.message} onRetry={() => void analytics.refetch()} retrying={analytics.isFetching} />
      ) : analytics.data ? (
        <AnalyticsContent data={analytics.data} days={days} />
      ) : (
        <Spinner className="py-12" label="Loading analytics" />
      )}
    </section>
  );
}

function AnalyticsContent({ data, days }: { data: AnalyticsResponse; days: AnalyticsPeriod }) {
  const totals = periodTotals(data.metrics);
  const empty = isEmptyPeriod(data);
  const average = averageProductsPerArtist(data.productStats.total_products, data.vendorStats.active_vendors);
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard title="Total Revenue" value={formatCurrency(totals.revenue)} description={`Last ${days} days`} />
        <StatCard title="Platform Fees" value={formatCurrency(totals.fees)} description={`${data.platformFeePercentage}% of sales`} />
        <StatCard title="Total Orders" value={String(totals.orders)} description={`Last ${days} days`} />
        <StatCard title="Active Artists" value={String(data.vendorStats.active_vendors)} description={`${data.vendorStats.new_vendors} new this month`} />
      </div>

      <RevenueCard data={data} days={days} empty={empty} />

      <TopListsCards days={days} enabled />

      <div className="grid gap-4 md:grid-cols-2">
        <StatList
          title="Artist Statistics"
          rows={[
            ["Total Artists", String(data.vendorStats.total_vendors)],
            ["Active Artists", String(data.vendorStats.active_vendors)],
            ["New This Month", String(data.vendorStats.new_vendors)],
          ]}
        />
        <StatList
          title="Product Statistics"
          rows={[
            ["Total Products", String(data.productStats.total_products)],
            ["New This Month", String(data.productStats.new_products)],
            ["Average per Artist", String(average)],
          ]}
        />
      </div>

      <Card>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
          <CardTitle>Daily Breakdown</CardTitle>
          <DailyBreakdownExport days={days} metrics={data.metrics} />
        </CardHeader>
        <CardContent>
          {empty ? (
            <p className="text-sm text-gray-600">{EMPTY_TEXT}</p>
          ) : (
            <DataTable label="Daily Breakdown" columns={breakdownColumns} rows={data.metrics.slice(0, BREAKDOWN_ROWS)} rowKey={(m) => m.date} />
          )}
        </CardContent>
      </Card>
    </>
  );
}

function StatList({ title, rows }: { title: string; rows: Array<[string, string]> }) {
  return (
    <Card role="group" aria-label={title}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-2 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="flex justify-between">
              <dt className="text-gray-600">{label}</dt>
              <dd className="font-medium">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
