import { formatCurrency } from "@web/lib/format";
import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** One bar of the chart: a day, a week or a month, with its label on the axis. */
export interface ChartPoint {
  label: string;
  revenue: number;
  fees: number;
}

/**
 * Revenue (bars) and platform fees (line) per day, week or month of the period. Loaded with
 * React.lazy by the Analytics screen only, so recharts never ships with the first screen's JS.
 */
export default function RevenueChart({ points, unit }: { points: readonly ChartPoint[]; unit: string }) {
  return (
    <div className="h-72 w-full" role="img" aria-label={`Revenue over ${points.length} ${unit}`}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={[...points]} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={16} />
          <YAxis tickFormatter={(v: number) => formatCurrency(v).replace(/\.00$/, "")} tick={{ fontSize: 12 }} width={72} />
          <Tooltip formatter={(value) => formatCurrency(Number(value))} />
          <Bar dataKey="revenue" name="Revenue" fill="var(--chart-1)" isAnimationActive={false} />
          <Line dataKey="fees" name="Fees" stroke="var(--chart-2)" dot={false} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
