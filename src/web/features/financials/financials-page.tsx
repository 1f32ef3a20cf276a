import { useUrlParams } from "@web/components/list";
import { createPayoutRunEndpoint } from "@contract/financials";
import { Button } from "@web/components/ui/button";
import { PageHeader } from "@web/components/ui/page-header";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { BalancesCard } from "./balances-card";
import { usePayoutRun } from "./financials-api";
import { PERIOD_OPTIONS, periodFromParam } from "./financials-text";
import { OverviewSection } from "./overview-section";
import { PayoutConfirmation } from "./payout-confirmation";
import { PayoutsCard } from "./payouts-card";
import { RunCard } from "./run-card";
import { WriteButton } from "@web/components/ui/write-button";

/**
 * Financials (docs/product.md §15.4): what the marketplace earned over a period against the one
 * before, what it owes each artist, its payouts, and payout runs with their progress. The period
 * (?period=), each list's status filter and page (balances.*, payouts.*) live in the URL;
 * ?confirm=payouts (the dashboard's 'Process Payouts') opens the payout confirmation.
 */
export default function FinancialsPage() {
  const [params, update] = useUrlParams();
  const period = periodFromParam(params.get("period"));
  const ready = useLoadDelay();
  const payoutRun = usePayoutRun(ready);
  const live = payoutRun.activeRun !== null;

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <PageHeader title="Financials" description="Earnings, balances owed to artists and payouts.">
        <WriteButton endpoint={createPayoutRunEndpoint} onClick={payoutRun.openConfirmation} disabled={!payoutRun.canStart}>
          {payoutRun.preparing ? "Preparing…" : "Process Payouts"}
        </WriteButton>
      </PageHeader>

      <div role="group" aria-label="Period" className="flex flex-wrap gap-2">
        {PERIOD_OPTIONS.map((p) => (
          <Button key={p.value} variant={p.value === period ? "default" : "outline"} aria-pressed={p.value === period} onClick={() => update({ period: p.value }, { resetPages: "none", push: true })}>
            {p.label}
          </Button>
        ))}
      </div>

      <RunCard run={payoutRun.latestRun} />
      <OverviewSection period={period} enabled={ready} />
      <BalancesCard enabled={ready} live={live} />
      <PayoutsCard enabled={ready} live={live} />

      <PayoutConfirmation run={payoutRun.previewRun} onCancel={payoutRun.dismiss} onConfirm={payoutRun.confirm} />
    </section>
  );
}
