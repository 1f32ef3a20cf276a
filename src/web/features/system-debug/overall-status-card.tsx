import type { DebugResponse } from "@contract/system-debug";
import { Badge, type BadgeVariant } from "@web/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { formatDateTime } from "@web/lib/format";
import { type HealthStatus, PROBLEM_TEXT, healthProblems, healthStatus } from "./health-status";

const STATUS_BADGE: Record<HealthStatus, { label: string; variant: BadgeVariant }> = {
  healthy: { label: "Healthy", variant: "success" },
  warning: { label: "Warning", variant: "warning" },
  critical: { label: "Critical", variant: "destructive" },
  unknown: { label: "Unknown", variant: "secondary" },
};

function ProblemList({ data }: { data: DebugResponse }) {
  const problems = healthProblems(data);
  if (problems.length === 0) return <p className="text-green-700">All checks passed.</p>;
  return (
    <ul aria-label="Problems" className="list-disc pl-5 text-gray-800">
      {problems.map((p) => (
        <li key={p}>{PROBLEM_TEXT[p]}</li>
      ))}
    </ul>
  );
}

/**
 * 'Overall Status' (docs/product.md §8.1, §8.2): the badge from the problems ('Unknown' before an
 * answer), when it was last checked, and the problems or 'All checks passed.'.
 */
export function OverallStatusCard({ data, checkedAt }: { data: DebugResponse | undefined; checkedAt: number }) {
  const badge = STATUS_BADGE[healthStatus(data)];
  return (
    <Card role="group" aria-labelledby="overall-status">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle id="overall-status">Overall Status</CardTitle>
        <Badge variant={badge.variant} data-testid="overall-status">
          {badge.label}
        </Badge>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        <p className="text-gray-600">Last checked: {checkedAt ? <time dateTime={new Date(checkedAt).toISOString()}>{formatDateTime(checkedAt)}</time> : "never"}</p>
        {data && <ProblemList data={data} />}
      </CardContent>
    </Card>
  );
}
