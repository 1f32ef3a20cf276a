import type { PayoutRunItem } from "@contract/financials";
import { AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from "@web/components/ui/alert-dialog";
import { countOf, formatCurrency } from "@web/lib/format";

/**
 * 'Process Payouts' (docs/product.md §15.4): 'Pay N artists $X?' from the dry run, naming who is
 * skipped and who is held back; with nobody to pay it says so and only closes.
 */
export function PayoutConfirmation({ run, onCancel, onConfirm }: { run: PayoutRunItem | null; onCancel: () => void; onConfirm: () => void }) {
  const nothing = run !== null && run.vendors === 0;
  return (
    <AlertDialog open={run !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Process Payouts</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div className="grid gap-2">
              {run && !nothing && (
                <p>
                  Pay <strong>{countOf(run.vendors, "artist")}</strong> a total of <strong>{formatCurrency(run.total)}</strong> through Stripe?
                </p>
              )}
              {run && nothing && <p>No artist with an active payout account is owed at least {formatCurrency(run.minimum)}.</p>}
              {run && <p>Artists owed at least {formatCurrency(run.minimum)} (the minimum payout amount) with an active payout account are paid.</p>}
              {run && run.skipped > 0 && (
                <p className="text-yellow-800">
                  {countOf(run.skipped, "artist")} owed {formatCurrency(run.skippedTotal)} will be skipped: their payout account is not active.
                </p>
              )}
              {run && run.held > 0 && (
                <p className="text-yellow-800">
                  {countOf(run.held, "artist")} will be left out: a payout to them is still being sent or its outcome is unknown, so paying them now could pay the same money twice.
                </p>
              )}
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel onClick={onCancel}>{nothing ? "Close" : "Cancel"}</AlertDialogCancel>
          {!nothing && run && <AlertDialogAction onClick={onConfirm}>{`Pay ${countOf(run.vendors, "artist")}`}</AlertDialogAction>}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
