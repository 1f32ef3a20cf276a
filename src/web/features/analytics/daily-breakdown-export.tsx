import { ANALYTICS_DAILY_EXPORT_KIND, type AnalyticsPeriod, type DailyMetric } from "@contract/analytics";
import { Button } from "@web/components/ui/button";
import { useCsvExport } from "@web/lib/download-export";

/**
 * 'Export CSV' of the daily breakdown (docs/product.md §6): every day of the period on screen (its
 * length and its last day, as the answer gave them), not only the rows the card shows.
 */
export function DailyBreakdownExport({ days, metrics }: { days: AnalyticsPeriod; metrics: readonly DailyMetric[] }) {
  const csv = useCsvExport("Export failed");
  const to = metrics.at(-1)?.date;
  return (
    <Button size="sm" variant="outline" disabled={csv.exporting || !to} onClick={() => csv.run(ANALYTICS_DAILY_EXPORT_KIND, { days: String(days), to })}>
      Export CSV
    </Button>
  );
}
