import type { FinancialOverview, FinancialPeriod } from "@contract/financials";
import { ListState } from "@web/components/list";
import { StatCard } from "@web/components/ui/stat-card";
import { formatCurrency } from "@web/lib/format";
import { ChartCard } from "./chart-card";
import { useFinancialOverview } from "./financials-api";
import { changeText } from "./financials-text";

type Figure = keyof Omit<FinancialOverview["previous"], "from" | "to">;

const CARDS: ReadonlyArray<{ key: Figure; title: string; description: string }> = [
  { key: "grossSales", title: "Gross Sales", description: "Paid orders" },
  { key: "platformFees", title: "Platform Fees", description: "Fees on those orders" },
  { key: "subscriptionRevenue", title: "Subscription Revenue", description: "Artists' monthly fees" },
  { key: "refunds", title: "Refunds", description: "Orders refunded" },
  { key: "vendorEarnings", title: "Artist Earnings", description: "Sales minus fees" },
  { key: "paidOut", title: "Paid Out", description: "Payouts sent" },
  { key: "outstandingBalance", title: "Outstanding Balance", description: "Owed to artists at the end" },
];

/** One figure against the previous period: '{±x.x}% vs previous period' or 'No previous period to compare'. */
function ChangeLine({ current, previous }: { current: number; previous: number }) {
  const change = changeText(current, previous);
  if (!change) return <p className="text-xs text-gray-500">No previous period to compare</p>;
  return <p className={change.up ? "text-xs text-green-700" : "text-xs text-red-700"}>{change.text}</p>;
}

/** The period's figures against the one before, and the chart (docs/product.md §15.4); 'Error loading financials' when they fail. */
export function OverviewSection({ period, enabled }: { period: FinancialPeriod; enabled: boolean }) {
  const overview = useFinancialOverview(period, enabled);
  return (
    <ListState query={overview} isEmpty={() => false} loadingLabel="Loading financials" errorTitle="Error loading financials" emptyText="">
      {(data) => (
        <>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {CARDS.map((c) => (
              <StatCard key={c.key} title={c.title} value={formatCurrency(data[c.key])} description={c.description} footer={<ChangeLine current={data[c.key]} previous={data.previous[c.key]} />} />
            ))}
          </div>
          <ChartCard data={data} />
        </>
      )}
    </ListState>
  );
}
