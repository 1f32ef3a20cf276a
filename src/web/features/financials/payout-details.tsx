import { checkPayoutEndpoint, type PayoutItem, retryPayoutEndpoint } from "@contract/financials";
import { formatDateTime } from "@web/lib/format";
import { UNKNOWN_EXPLANATION } from "./financials-text";
import { WriteButton } from "@web/components/ui/write-button";

/** What a payout's row can do, with whether each is under way. */
export interface PayoutActions {
  retry: (payout: PayoutItem) => void;
  retrying: boolean;
  check: (payout: PayoutItem) => void;
  checking: boolean;
}

/**
 * A payout's 'Details' (docs/product.md §15.4): an unknown outcome's meaning, Stripe's last answer
 * and 'Check with Stripe'; a failure's message and 'Retry'; otherwise the Stripe transfer id.
 */
export function PayoutDetails({ payout: p, actions }: { payout: PayoutItem; actions: PayoutActions }) {
  if (p.status === "unknown") {
    return (
      <div className="grid gap-1">
        <span className="text-yellow-800">{UNKNOWN_EXPLANATION}</span>
        {p.failureReason && <span className="text-xs text-gray-600">Last answer: {p.failureReason}</span>}
        <span className="text-xs text-gray-600">{p.checkedAt ? `Last checked with Stripe ${formatDateTime(p.checkedAt)}` : "Not checked with Stripe yet"}</span>
        <div>
          <WriteButton endpoint={checkPayoutEndpoint} size="sm" variant="outline" disabled={actions.checking} onClick={() => actions.check(p)}>
            Check with Stripe
          </WriteButton>
        </div>
      </div>
    );
  }
  if (p.status === "failed") {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-red-700">{p.failureReason}</span>
        <WriteButton endpoint={retryPayoutEndpoint} size="sm" variant="outline" disabled={actions.retrying} onClick={() => actions.retry(p)}>
          Retry
        </WriteButton>
      </div>
    );
  }
  return <code className="text-xs text-gray-600">{p.stripeTransferId ?? ""}</code>;
}
