import { lazy, Suspense } from "react";
import type { FinancialOverview } from "@contract/financials";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { formatDate } from "@web/lib/format";
import { PERIOD_OPTIONS } from "./financials-text";

// Recharts loads only when the chart is drawn (docs/product.md §2.5).
const FinancialsChart = lazy(() => import("./financials-chart"));

/** 'Sales, fees and payouts' per day over the period, or 'No sales or payouts in this period'. */
export function ChartCard({ data }: { data: FinancialOverview }) {
  const label = PERIOD_OPTIONS.find((p) => p.value === data.period)?.label ?? "";
  const empty = data.series.every((d) => d.grossSales === 0 && d.platformFees === 0 && d.paidOut === 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sales, fees and payouts</CardTitle>
        <CardDescription>
          Per day, {label.toLowerCase()} ({formatDate(`${data.from}T12:00:00Z`)} – {formatDate(`${data.to}T12:00:00Z`)})
        </CardDescription>
      </CardHeader>
      <CardContent>
        {empty ? (
          <p className="text-sm text-gray-600">No sales or payouts in this period</p>
        ) : (
          <Suspense fallback={<Spinner className="h-72 w-full" label="Loading chart" />}>
            <FinancialsChart series={data.series} />
          </Suspense>
        )}
      </CardContent>
    </Card>
  );
}
