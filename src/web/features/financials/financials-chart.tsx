import type { FinancialDay } from "@contract/financials";
import { formatCurrency } from "@web/lib/format";
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/**
 * Daily gross sales (bars), platform fees and payouts (lines) over the period. Loaded with
 * React.lazy by the Financials screen only, so recharts never ships with the first screen's JS.
 */
export default function FinancialsChart({ series }: { series: readonly FinancialDay[] }) {
  return (
    <div className="h-72 w-full" role="img" aria-label={`Daily sales, fees and payouts over ${series.length} days`}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={[...series]} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} tick={{ fontSize: 12 }} minTickGap={16} />
          <YAxis tickFormatter={(v: number) => formatCurrency(v).replace(/\.00$/, "")} tick={{ fontSize: 12 }} width={72} />
          <Tooltip formatter={(value) => formatCurrency(Number(value))} />
          <Legend />
          <Bar dataKey="grossSales" name="Sales" fill="var(--chart-1)" isAnimationActive={false} />
          <Line dataKey="platformFees" name="Fees" stroke="var(--chart-2)" dot={false} isAnimationActive={false} />
          <Line dataKey="paidOut" name="Payouts" stroke="var(--chart-3)" dot={false} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
