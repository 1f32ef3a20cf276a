import type { DebugResponse } from "@contract/system-debug";
import { Badge } from "@web/components/ui/badge";
import { Fact, FactsCard } from "./facts-card";

/** Entries the error-log budgets dropped (docs/product.md §5.3): none, or how many per level. */
function ErrorLogDrops({ drops }: { drops: DebugResponse["errorLogDrops"] }) {
  const total = drops.error + drops.warning + drops.info;
  if (total === 0) return <span data-testid="error-log-drops">None</span>;
  return (
    <span data-testid="error-log-drops">
      <Badge variant={drops.error > 0 ? "destructive" : "warning"}>{total}</Badge> errors {drops.error}, warnings {drops.warning}, info {drops.info}
    </span>
  );
}

/** 'API Configuration': the API's URL, the database engine in use and the error-log drops (docs/product.md §8.1). */
export function ApiCard({ data }: { data: DebugResponse }) {
  return (
    <FactsCard title="API Configuration">
      <Fact label="API URL" code>
        {data.apiUrl}
      </Fact>
      <Fact label="Database">{data.database.label}</Fact>
      <Fact label={`Error Log Drops (${data.errorLogDrops.hours} h)`}>
        <ErrorLogDrops drops={data.errorLogDrops} />
      </Fact>
    </FactsCard>
  );
}
