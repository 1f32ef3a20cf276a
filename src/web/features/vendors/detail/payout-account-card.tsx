import { type PayoutAccountItem, refreshPayoutAccountEndpoint } from "@contract/financials";
import { useEndpointAccess } from "@web/app/current-user";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatDateTime } from "@web/lib/format";
import { ACCOUNT_BADGE, ACCOUNT_STATUS_LABELS } from "@web/lib/labels";
import { useRefreshPayoutAccount } from "../vendors-api";

/** The vendor's Stripe account: status, what Stripe still needs, and 'Refresh from Stripe' (docs/product.md §15.4). */
export function PayoutAccountCard({ vendorId, account }: { vendorId: string; account: PayoutAccountItem }) {
  const { allowed: canWrite, reason: readOnly } = useEndpointAccess(refreshPayoutAccountEndpoint);
  const refresh = useRefreshPayoutAccount();
  const due = account.requirements ? [...new Set([...account.requirements.pastDue, ...account.requirements.currentlyDue])] : [];
  const onRefresh = () =>
    refresh.mutate(vendorId, {
      onSuccess: (data) => toast({ title: `Payout account is ${ACCOUNT_STATUS_LABELS[data.account.status].toLowerCase()}`, variant: "success" }),
      onError: (error) => toast({ title: `Failed to refresh the payout account: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <CardTitle>Payout account</CardTitle>
        <DisabledReason reason={readOnly}>
          <Button variant="outline" disabled={refresh.isPending || account.stripeAccountId === null || !canWrite} onClick={onRefresh}>
            {refresh.isPending ? "Refreshing…" : "Refresh from Stripe"}
          </Button>
        </DisabledReason>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        <p>
          Status: <Badge variant={ACCOUNT_BADGE[account.status]}>{ACCOUNT_STATUS_LABELS[account.status]}</Badge>
        </p>
        <p>
          Stripe account: <code>{account.stripeAccountId ?? "not connected"}</code>
        </p>
        {account.stripeAccountId && (
          <p>
            Charges {account.chargesEnabled ? "enabled" : "disabled"} · Payouts {account.payoutsEnabled ? "enabled" : "disabled"}
          </p>
        )}
        {due.length > 0 && <p className="text-yellow-800">Stripe still needs: {due.join(", ")}</p>}
        {account.requirements?.disabledReason && <p className="text-red-700">Disabled: {account.requirements.disabledReason}</p>}
        <p className="text-gray-600">{account.checkedAt ? `Checked ${formatDateTime(account.checkedAt)}` : "Never checked with Stripe"}</p>
      </CardContent>
    </Card>
  );
}
