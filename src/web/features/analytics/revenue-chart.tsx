import type { DailyMetric } from "@contract/analytics";
import { formatCurrency } from "@web/lib/format";
import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/**
 * Daily revenue (bars) and platform fees (line) over the period. Loaded with React.lazy by the
 * Analytics screen only, so recharts never ships with the first screen's JS.
 */
export default function RevenueChart({ metrics }: { metrics: readonly DailyMetric[] }) {
  return (
    <div className="h-72 w-full" role="img" aria-label={`Daily revenue over ${metrics.length} days`}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={[...metrics]} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} tick={{ fontSize: 12 }} minTickGap={16} />
          <YAxis tickFormatter={(v: number) => formatCurrency(v).replace(/\.00$/, "")} tick={{ fontSize: 12 }} width={72} />
          <Tooltip formatter={(value) => formatCurrency(Number(value))} />
          <Bar dataKey="total_revenue" name="Revenue" fill="#111827" isAnimationActive={false} />
          <Line dataKey="total_fees" name="Fees" stroke="#2563eb" dot={false} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
