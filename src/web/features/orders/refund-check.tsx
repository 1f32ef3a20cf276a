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
 * 'Check with Stripe' for the refunds of one order, held by what stays on screen while the order
 * is open (a settled refund's own step is replaced by the refund once the order is read again):
 * the check under way, and Stripe's last answer per refund.
 */
export function useRefundChecks() {
  const mutation = useCheckRefund();
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const check = (refund: PanelRefund) =>
    mutation.mutate(refund.id, {
      onSuccess: (result) => {
        setAnswers((all) => ({ ...all, [refund.id]: result.message }));
        const variant = result.outcome === "succeeded" ? "success" : result.outcome === "failed" ? "destructive" : "default";
        toast({ title: TITLES[result.outcome](formatCurrency(refund.amount)), description: result.message, variant });
      },
      onError: (error) => toast({ title: `Failed to check with Stripe: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  return { check, checkingId: mutation.isPending ? mutation.variables : null, answers };
}

export type RefundChecks = ReturnType<typeof useRefundChecks>;

/**
 * What a refund of unknown outcome means, and 'Check with Stripe' (docs/product.md "Refunds from
 * the panel"): after a confirmation that says it only asks, the panel lists the payment's refunds
 * at Stripe and records what it finds; the answer is shown beside the button and as a toast.
 */
export function RefundCheck({ refund, paymentIntentId, checks }: { refund: PanelRefund; paymentIntentId: string | null; checks: RefundChecks }) {
  const [confirming, setConfirming] = useState(false);
  const checking = checks.checkingId === refund.id;
  const answer = checks.answers[refund.id];
  return (
    <div className="mt-1 grid justify-items-start gap-1" data-testid="refund-check">
      <span className="text-yellow-800">
        {refund.status === "unknown"
          ? "Stripe gave no definite answer: the refund may have been made. The panel asks Stripe every few minutes and never refunds again."
          : "Asked of Stripe; its answer is not recorded yet."}
      </span>
      <span className="text-xs text-gray-600">{refund.checkedAt ? `Last checked with Stripe ${formatDateTime(refund.checkedAt)}` : "Not checked with Stripe yet"}</span>
      <WriteButton endpoint={checkRefundEndpoint} size="sm" variant="outline" disabled={checks.checkingId !== null} onClick={() => setConfirming(true)}>
        {checking ? "Checking with Stripe…" : "Check with Stripe"}
      </WriteButton>
      {answer && (
        <span role="status" className="text-gray-800">
          Stripe: {answer}
        </span>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Check the refund of ${formatCurrency(refund.amount)} with Stripe?`}
        description={`The panel lists the refunds of the buyer's payment${paymentIntentId ? ` (${paymentIntentId})` : ""} at Stripe and records what it finds for this one. It never asks Stripe to refund again.`}
        confirmLabel="Check with Stripe"
        onConfirm={() => checks.check(refund)}
      />
    </div>
  );
}
