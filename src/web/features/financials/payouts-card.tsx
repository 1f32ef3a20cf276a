import type { PayoutItem } from "@contract/financials";
import type { Column } from "@web/components/list";
import { Badge } from "@web/components/ui/badge";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatCount, formatCurrency, formatDateTime } from "@web/lib/format";
import { PAYOUT_BADGE, PAYOUT_STATUS_LABELS } from "@web/lib/labels";
import { useCheckPayout, usePayouts, useRetryPayout } from "./financials-api";
import { checkOutcomeTitle, UNKNOWN_EXPLANATION } from "./financials-text";
import { ListCard } from "./list-card";
import { type PayoutActions, PayoutDetails } from "./payout-details";
import { useStatusFilter } from "./use-status-filter";

const payoutColumns = (actions: PayoutActions): ReadonlyArray<Column<PayoutItem>> => [
  { id: "date", header: "Date", cell: (p) => formatDateTime(p.paidAt ?? p.createdAt) },
  { id: "artist", header: "Artist", cell: (p) => p.vendorName },
  { id: "amount", header: "Amount", className: "text-right", cell: (p) => formatCurrency(p.amount) },
  {
    id: "status",
    header: "Status",
    cell: (p) => (
      <Badge variant={PAYOUT_BADGE[p.status]} title={p.status === "unknown" ? UNKNOWN_EXPLANATION : undefined}>
        {PAYOUT_STATUS_LABELS[p.status]}
      </Badge>
    ),
  },
  { id: "details", header: "Details", className: "max-w-md text-sm", cell: (p) => <PayoutDetails payout={p} actions={actions} /> },
];

/** 'Payouts' (docs/product.md §15.4): newest first, by status, with 'Retry' and 'Check with Stripe' on the rows that need them. */
export function PayoutsCard({ enabled, live }: { enabled: boolean; live: boolean }) {
  const filter = useStatusFilter("payouts", PAYOUT_STATUS_LABELS);
  const q = usePayouts(filter.status, filter.pages.cursor, { enabled, live });
  const retry = useRetryPayout();
  const check = useCheckPayout();
  const actions: PayoutActions = {
    retrying: retry.isPending,
    retry: (p) =>
      retry.mutate(p.id, {
        onSuccess: () => toast({ title: `Payout to ${p.vendorName} queued again`, variant: "success" }),
        onError: (error) => toast({ title: `Failed to retry payout: ${apiErrorMessage(error)}`, variant: "destructive" }),
      }),
    checking: check.isPending,
    check: (p) =>
      check.mutate(p.id, {
        onSuccess: (result) => toast({ title: checkOutcomeTitle(result.outcome, p.vendorName), description: result.message, variant: result.outcome === "paid" ? "success" : "default" }),
        onError: (error) => toast({ title: `Failed to check with Stripe: ${apiErrorMessage(error)}`, variant: "destructive" }),
      }),
  };
  return (
    <ListCard
      title="Payouts"
      description={q.data ? `${formatCount(q.data.total)} payouts, newest first` : "Newest first"}
      filter={filter}
      select={{ id: "payouts-status", label: "Status", allLabel: "All statuses", labels: PAYOUT_STATUS_LABELS, className: "w-40" }}
      csv={{ label: "Export Payouts CSV", kind: "payouts", filterName: "status" }}
      query={q}
      rowsOf={(d) => d.payouts}
      columns={payoutColumns(actions)}
      rowKey={(p) => p.id}
      words={{ table: "Payouts", pager: "Payout pages", loading: "Loading payouts", error: "Failed to load payouts", empty: "No payouts yet." }}
    />
  );
}
