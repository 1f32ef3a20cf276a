import { lazy, Suspense } from "react";
import { useSearchParams } from "react-router";
import type { AnalyticsPeriod, AnalyticsResponse, SalesGrouping } from "@contract/analytics";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { apiErrorMessage } from "@web/lib/api-client";
import { useSales } from "./analytics-api";
import type { ChartPoint } from "./revenue-chart";

// Recharts weighs as much as the rest of the first screen: it loads only when the chart is drawn.
const RevenueChart = lazy(() => import("./revenue-chart"));

export const EMPTY_TEXT = "No data available for the selected period";

const GROUPINGS: ReadonlyArray<{ value: SalesGrouping; label: string; adjective: string; unit: string }> = [
  { value: "day", label: "Day", adjective: "Daily", unit: "days" },
  { value: "week", label: "Week", adjective: "Weekly", unit: "weeks" },
  { value: "month", label: "Month", adjective: "Monthly", unit: "months" },
];

/** The chart's grouping, kept in the URL as ?groupBy= (day when absent or unknown). */
function useGrouping(): [SalesGrouping, (g: SalesGrouping) => void] {
  const [params, setParams] = useSearchParams();
  const value = GROUPINGS.find((g) => g.value === params.get("groupBy"))?.value ?? "day";
  const choose = (g: SalesGrouping) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (g === "day") next.delete("groupBy");
      else next.set("groupBy", g);
      return next;
    });
  return [value, choose];
}

/**
 * 'Revenue' (docs/product.md §6, §18.2): revenue and fees per day from the analytics answer, or per
 * ISO week or calendar month from the sales call, switched by 'Day' / 'Week' / 'Month'.
 */
export function RevenueCard({ data, days, empty }: { data: AnalyticsResponse; days: AnalyticsPeriod; empty: boolean }) {
  const [groupBy, choose] = useGrouping();
  const grouping = GROUPINGS.find((g) => g.value === groupBy)!;
  const sales = useSales(days, groupBy, groupBy !== "day" && !empty);
  const points: ChartPoint[] | undefined =
    groupBy === "day"
      ? data.metrics.map((m) => ({ label: m.date.slice(5), revenue: m.total_revenue, fees: m.total_fees }))
      : sales.data?.buckets.map((b) => ({ label: groupBy === "month" ? b.start.slice(0, 7) : b.start.slice(5), revenue: b.revenue, fees: b.fees }));
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Revenue</CardTitle>
          <CardDescription>
            {grouping.adjective} revenue and platform fees, last {days} days
          </CardDescription>
        </div>
        <div role="group" aria-label="Group by" className="flex gap-1">
          {GROUPINGS.map((g) => (
            <Button key={g.value} size="sm" variant={g.value === groupBy ? "default" : "outline"} aria-pressed={g.value === groupBy} onClick={() => choose(g.value)}>
              {g.label}
            </Button>
          ))}
        </div>
      </CardHeader>
      <CardContent>
        {empty ? (
          <p className="text-sm text-gray-600">{EMPTY_TEXT}</p>
        ) : sales.isError && groupBy !== "day" ? (
          <p role="alert" className="text-sm text-red-700">
            {apiErrorMessage(sales.error)}
          </p>
        ) : points ? (
          <Suspense fallback={<Spinner className="h-72 w-full" label="Loading chart" />}>
            <RevenueChart points={points} unit={grouping.unit} />
          </Suspense>
        ) : (
          <Spinner className="h-72 w-full" label="Loading chart" />
        )}
      </CardContent>
    </Card>
  );
}
