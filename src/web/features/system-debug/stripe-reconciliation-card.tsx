import type { DebugResponse } from "@contract/system-debug";
import { type Column, DataTable } from "@web/components/list";
import { Badge } from "@web/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { countOf, formatCurrency, formatDateTime } from "@web/lib/format";

type Reconciliation = DebugResponse["stripeReconciliation"];
type Difference = Reconciliation["differences"][number];

const DIFFERENCE_LABELS: Record<Difference["kind"], string> = {
  unknown_transfer: "Transfer the ledger does not know",
  amount_differs: "Amount differs",
  missing_transfer: "Paid in the ledger, not at Stripe",
};

const amount = (dollars: number | null) => (dollars === null ? "—" : formatCurrency(dollars));

const COLUMNS: ReadonlyArray<Column<Difference>> = [
  { id: "found", header: "Found", cell: (d) => formatDateTime(d.foundAt) },
  { id: "kind", header: "Difference", cell: (d) => <Badge variant="destructive">{DIFFERENCE_LABELS[d.kind]}</Badge> },
  { id: "artist", header: "Artist", cell: (d) => d.vendorName ?? d.destination ?? "—" },
  { id: "transfer", header: "Stripe transfer", cell: (d) => <code className="text-xs">{d.stripeTransferId ?? "—"}</code> },
  { id: "stripe-amount", header: "At Stripe", className: "text-right", cell: (d) => amount(d.stripeAmount) },
  { id: "ledger-amount", header: "In the ledger", className: "text-right", cell: (d) => amount(d.ledgerAmount) },
  { id: "detail", header: "Details", className: "max-w-md", cell: (d) => d.detail },
];

/** When the comparison last ran and what it compared, or that it has not run yet. */
function lastComparison({ last }: Reconciliation): string {
  if (!last) return "Not compared yet: it runs once a day when a Stripe key is configured.";
  return `Last compared ${formatDateTime(last.finishedAt ?? last.startedAt)}: ${countOf(last.runs, "payout run")} since ${formatDateTime(last.since)}, ${last.transfers} Stripe transfers, ${last.payouts} payouts.`;
}

/**
 * 'Stripe Reconciliation': the daily comparison of Stripe's transfers with the ledger
 * (docs/product.md §15.3), and every difference still open. A double payment would show here.
 */
export function StripeReconciliationCard({ facts }: { facts: Reconciliation }) {
  const { last, openDifferences, differences } = facts;
  return (
    <Card role="group" aria-labelledby="section-stripe-reconciliation" className="lg:col-span-2">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <div>
          <CardTitle id="section-stripe-reconciliation">Stripe Reconciliation</CardTitle>
          <CardDescription>Stripe's transfers of the last days compared with the payouts the ledger records, daily.</CardDescription>
        </div>
        <Badge variant={openDifferences > 0 ? "destructive" : "success"} data-testid="stripe-differences">
          {openDifferences > 0 ? countOf(openDifferences, "open difference") : "No differences"}
        </Badge>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <p className="text-gray-700">{lastComparison(facts)}</p>
        {last?.error && <p className="text-red-700">Stopped short: {last.error}</p>}
        {differences.length > 0 && <DataTable label="Differences between Stripe and the ledger" columns={COLUMNS} rows={differences} rowKey={(d) => `${d.kind}:${d.stripeTransferId ?? d.payoutId}`} />}
      </CardContent>
    </Card>
  );
}
