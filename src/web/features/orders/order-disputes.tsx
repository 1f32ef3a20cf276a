import type { OrderDetail } from "@contract/orders";
import { Badge } from "@web/components/ui/badge";
import { formatCurrency, formatDateTime } from "@web/lib/format";

const OUTCOME = { open: { label: "Open", variant: "destructive" }, won: { label: "Won", variant: "secondary" }, lost: { label: "Lost", variant: "warning" } } as const;

/** The Stripe disputes of the order's charge (docs/product.md §19.7): state, reason, amounts, evidence due date, a link to Stripe's dashboard. */
export function OrderDisputes({ disputes }: { disputes: OrderDetail["disputes"] }) {
  if (disputes.length === 0) return null;
  return (
    <section aria-label="Disputes" className="grid gap-2">
      <h3 className="text-sm font-semibold">Disputes</h3>
      <ul className="grid gap-2 text-sm">
        {disputes.map((d) => (
          <li key={d.id} className="rounded-md border border-gray-200 p-2" data-testid="order-dispute">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={OUTCOME[d.outcome].variant}>{OUTCOME[d.outcome].label}</Badge>
              <span className="font-medium">{formatCurrency(d.amount)} disputed</span>
              <span className="text-gray-700">
                ({d.reason.replace(/_/g, " ")}, {d.status.replace(/_/g, " ")})
              </span>
            </div>
            <p className="text-gray-700">
              This line: {formatCurrency(d.lineAmount)}
              {d.outcome === "open" && `; ${formatCurrency(d.heldForArtist)} of the artist's share held out of payouts`}
              {d.feeChargedToArtist > 0 && `; Stripe's fee charged to the artist: ${formatCurrency(d.feeChargedToArtist)}`}
            </p>
            {d.outcome === "open" && d.evidenceDueBy && <p className="text-red-700">Evidence due by {formatDateTime(d.evidenceDueBy)}</p>}
            <a href={d.dashboardUrl} target="_blank" rel="noreferrer" className="text-blue-700 hover:underline">
              Open in Stripe's dashboard
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
