import { useState } from "react";
import { cancelPayoutRunEndpoint, type PayoutRunItem } from "@contract/financials";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { countOf, formatCount, formatCurrency, formatDateTime } from "@web/lib/format";
import { isActiveRun, useCancelPayoutRun } from "./financials-api";
import { runStatusText } from "./financials-text";
import { WriteButton } from "@web/components/ui/write-button";

/** The progress line: '{done} of {n} artists paid ({paid} of {total}) · {failed} failed', and what else happened. */
function progressText(run: PayoutRunItem): string {
  return [
    `${formatCount(run.done)} of ${countOf(run.vendors, "artist")} paid (${formatCurrency(run.paidTotal)} of ${formatCurrency(run.total)}) · ${run.failed} failed`,
    run.unknown ? ` · ${run.unknown} unknown` : "",
    run.canceled ? ` · ${run.canceled} canceled` : "",
    run.skipped ? ` · ${countOf(run.skipped, "artist")} skipped (payout account not active)` : "",
    run.held ? ` · ${countOf(run.held, "artist")} held back (an earlier payout still open)` : "",
  ].join("");
}

/** The run in progress (a progress bar, 'Cancel Run'), or the last run's outcome (docs/product.md §15.4). */
export function RunCard({ run }: { run: PayoutRunItem | null }) {
  const cancel = useCancelPayoutRun();
  const [confirmCancel, setConfirmCancel] = useState(false);
  if (!run) return null;
  const active = isActiveRun(run);
  const settled = run.done + run.failed + run.unknown + run.canceled;
  const percent = run.vendors > 0 ? Math.round((settled / run.vendors) * 100) : active ? 0 : 100;
  const title = active ? "Payout run in progress" : "Last payout run";
  return (
    <Card aria-label={title} role="region">
      <CardHeader className="pb-2">
        <CardTitle>{title}</CardTitle>
        <CardDescription>
          Started {formatDateTime(run.createdAt)}
          {run.createdBy ? ` by ${run.createdBy}` : ""}
          {run.finishedAt ? ` · ended ${formatDateTime(run.finishedAt)}` : ""}
          {!active ? ` · ${runStatusText(run.status)}` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div role="progressbar" aria-label="Payout progress" aria-valuemin={0} aria-valuemax={run.vendors} aria-valuenow={settled} className="h-3 w-full overflow-hidden rounded-full bg-gray-100">
          <div className={active ? "h-full bg-blue-600 transition-all" : "h-full bg-green-600"} style={{ width: `${percent}%` }} />
        </div>
        <p className="text-sm text-gray-700" data-testid="run-progress">
          {progressText(run)}
        </p>
        {!active && run.unknown > 0 && (
          <p role="status" className="text-sm text-yellow-800">
            {run.unknown === 1 ? "1 payout has" : `${run.unknown} payouts have`} an unknown outcome: Stripe never answered for certain, so the money stays in flight until Stripe confirms whether the
            transfer was made. They are checked with Stripe every few minutes, or use 'Check with Stripe' on the payout.
          </p>
        )}
        {run.error && <p className="text-sm text-red-700">{run.error}</p>}
        {active && (
          <div>
            <WriteButton endpoint={cancelPayoutRunEndpoint} variant="outline" onClick={() => setConfirmCancel(true)} disabled={cancel.isPending}>
              Cancel Run
            </WriteButton>
          </div>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title="Cancel Payout Run"
        description="Payouts not yet started will be canceled and stay owed to the artists; transfers already being made will finish."
        confirmLabel="Cancel Run"
        cancelLabel="Keep Running"
        confirmVariant="destructive"
        onConfirm={() =>
          cancel.mutate(run.id, {
            onSuccess: () => toast({ title: "Canceling the payout run…" }),
            onError: (error) => toast({ title: `Failed to cancel the run: ${apiErrorMessage(error)}`, variant: "destructive" }),
          })
        }
      />
    </Card>
  );
}
