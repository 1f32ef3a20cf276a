import { Link } from "react-router";
import { STATEMENT_EXPORT_KIND, type StatementEntry, type StatementKind } from "@contract/financials";
import { type Column, ListTable, Pager, useKeysetPages } from "@web/components/list";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { useCsvExport } from "@web/lib/download-export";
import { formatCurrency, formatDateTime } from "@web/lib/format";
import { cn } from "@web/lib/cn";
import { useVendorStatement } from "../vendors-api";

const KIND_LABELS: Record<StatementKind, string> = {
  sale: "Sale",
  refund: "Refund",
  refund_whole: "Refunded whole",
  cancelled: "Cancelled",
  dispute_hold: "Dispute hold",
  dispute_release: "Dispute release",
  dispute_fee: "Dispute fee",
  payout: "Payout",
  payout_returned: "Payout returned",
  transfer_reversed: "Transfer reversed",
  subscription: "Subscription fee",
};

const columns: ReadonlyArray<Column<StatementEntry>> = [
  { id: "date", header: "Date", cell: (e) => formatDateTime(e.at) },
  { id: "kind", header: "Kind", cell: (e) => KIND_LABELS[e.kind] },
  {
    id: "what",
    header: "What",
    cell: (e) =>
      e.orderId ? (
        <Link className="text-blue-700 hover:underline" to={`/orders?order=${encodeURIComponent(e.orderId)}`}>
          {e.description}
        </Link>
      ) : (
        e.description
      ),
  },
  { id: "amount", header: "Amount", className: "text-right tabular-nums", cell: (e) => <span className={cn(e.amount < 0 && "text-red-700")}>{e.amount === 0 ? "—" : formatCurrency(e.amount)}</span> },
  { id: "balance", header: "Balance", className: "text-right tabular-nums", cell: (e) => formatCurrency(e.balance) },
];

/**
 * The artist's statement (docs/product.md §15.8): every sale, refund, dispute hold and release,
 * subscription fee and payout, newest first, with the balance after each; the newest balance is
 * the one Financials shows. Keyset pages in the URL (`statement.cursor`); CSV through the one export.
 */
export function StatementTab({ vendorId }: { vendorId: string }) {
  const pages = useKeysetPages("statement");
  const q = useVendorStatement(vendorId, pages.cursor);
  const csv = useCsvExport("Export failed");
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle>Statement</CardTitle>
          <CardDescription>{q.data ? `Owed now: ${formatCurrency(q.data.balance)}` : "What the platform owes the artist, line by line"}</CardDescription>
        </div>
        <Button variant="outline" disabled={csv.exporting} onClick={() => csv.run(STATEMENT_EXPORT_KIND, { vendorId })}>
          Export CSV
        </Button>
      </CardHeader>
      <CardContent>
        <ListTable
          inline
          query={q}
          rowsOf={(d) => d.entries}
          loadingLabel="Loading the statement"
          errorTitle="Failed to load the statement"
          emptyText="Nothing on the statement yet."
          footer={() => <Pager label="Statement pages" {...pages.controls(q)} />}
          label="Statement"
          columns={columns}
          rowKey={(e) => e.id}
        />
      </CardContent>
    </Card>
  );
}
