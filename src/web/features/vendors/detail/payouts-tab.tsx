import type { PayoutItem } from "@contract/financials";
import { type Column, DataTable, ListState } from "@web/components/list";
import { TitledCard } from "@web/components/ui/card";
import { StatCard } from "@web/components/ui/stat-card";
import { formatCurrency, formatDate, formatDateTime } from "@web/lib/format";
import { PAYOUT_STATUS_LABELS } from "@web/lib/labels";
import { useVendorPayouts } from "../vendors-api";
import { PayoutAccountCard } from "./payout-account-card";

const COLUMNS: ReadonlyArray<Column<PayoutItem>> = [
  { id: "date", header: "Date", cell: (p) => formatDateTime(p.paidAt ?? p.createdAt) },
  { id: "amount", header: "Amount", cell: (p) => formatCurrency(p.amount) },
  { id: "status", header: "Status", cell: (p) => PAYOUT_STATUS_LABELS[p.status] },
  { id: "details", header: "Details", className: "text-xs", cell: (p) => (p.status === "failed" ? p.failureReason : (p.stripeTransferId ?? "")) },
];

/** Payout account (with a refresh from Stripe), what the vendor is owed, and its latest payouts (docs/product.md §15.4). */
export function PayoutsTab({ vendorId }: { vendorId: string }) {
  const q = useVendorPayouts(vendorId, true);
  return (
    <ListState inline query={q} isEmpty={() => false} loadingLabel="Loading payouts" emptyText="">
      {({ account, money, recentPayouts }) => (
        <div className="grid gap-4">
          <PayoutAccountCard vendorId={vendorId} account={account} />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <StatCard title="Balance" value={formatCurrency(money.balance)} />
            <StatCard title="Earned" value={formatCurrency(money.earned)} />
            <StatCard title="Paid Out" value={formatCurrency(money.paidOut)} />
            <StatCard title="In Flight" value={formatCurrency(money.inFlight)} />
          </div>
          <TitledCard title="Last payouts">
            {recentPayouts.length === 0 ? (
              <p className="py-4 text-center text-gray-600">No payouts yet</p>
            ) : (
              <DataTable label="Last payouts" columns={COLUMNS} rows={recentPayouts} rowKey={(p) => p.id} />
            )}
            <p className="pt-2 text-sm text-gray-600">Last payout: {money.lastPayoutAt ? formatDate(money.lastPayoutAt) : "Never"}</p>
          </TitledCard>
        </div>
      )}
    </ListState>
  );
}
