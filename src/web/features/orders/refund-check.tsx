import { useState } from "react";
import { checkRefundEndpoint, type CheckRefundResponse, type PanelRefund } from "@contract/orders";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { toast } from "@web/components/ui/toast";
import { WriteButton } from "@web/components/ui/write-button";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatCurrency, formatDateTime } from "@web/lib/format";
import { useCheckRefund } from "./orders-api";

/** A refund from the panel whose outcome is not recorded yet: 'Check with Stripe' is offered on it. */
export const isUnsettledRefund = (refund: PanelRefund) => refund.status === "unknown" || refund.status === "pending";

const TITLES: Record<CheckRefundResponse["outcome"], (amount: string) => string> = {
  succeeded: (amount) => `Refunded ${amount}: Stripe made the refund`,
  failed: (amount) => `Refund of ${amount} not made`,
  unsettled: () => "Stripe cannot say yet",
};

/**
 * What a refund of unknown outcome means, and 'Check with Stripe' (docs/product.md "Refunds from
 * the panel"): after a confirmation that says it only asks, the panel lists the payment's refunds
 * at Stripe and records what it finds; the answer is shown beside the button and as a toast.
 */
export function RefundCheck({ refund, paymentIntentId }: { refund: PanelRefund; paymentIntentId: string | null }) {
  const check = useCheckRefund();
  const [confirming, setConfirming] = useState(false);
  const [answer, setAnswer] = useState<string | null>(null);
  const amount = formatCurrency(refund.amount);

  const run = () =>
    check.mutate(refund.id, {
      onSuccess: (result) => {
        setAnswer(result.message);
        toast({ title: TITLES[result.outcome](amount), description: result.message, variant: result.outcome === "succeeded" ? "success" : result.outcome === "failed" ? "destructive" : "default" });
      },
      onError: (error) => {
        setAnswer(null);
        toast({ title: `Failed to check with Stripe: ${apiErrorMessage(error)}`, variant: "destructive" });
      },
    });

  return (
    <div className="mt-1 grid justify-items-start gap-1" data-testid="refund-check">
      <span className="text-yellow-800">
        {refund.status === "unknown"
          ? "Stripe gave no definite answer: the refund may have been made. The panel asks Stripe every few minutes and never refunds again."
          : "Asked of Stripe; its answer is not recorded yet."}
      </span>
      <span className="text-xs text-gray-600">{refund.checkedAt ? `Last checked with Stripe ${formatDateTime(refund.checkedAt)}` : "Not checked with Stripe yet"}</span>
      <WriteButton endpoint={checkRefundEndpoint} size="sm" variant="outline" disabled={check.isPending} onClick={() => setConfirming(true)}>
        {check.isPending ? "Checking with Stripe…" : "Check with Stripe"}
      </WriteButton>
      {answer && (
        <span role="status" className="text-gray-800">
          Stripe: {answer}
        </span>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Check the refund of ${amount} with Stripe?`}
        description={`The panel lists the refunds of the buyer's payment${paymentIntentId ? ` (${paymentIntentId})` : ""} at Stripe and records what it finds for this one. It never asks Stripe to refund again.`}
        confirmLabel="Check with Stripe"
        onConfirm={run}
      />
    </div>
  );
}
