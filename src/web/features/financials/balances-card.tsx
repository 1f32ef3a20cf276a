import { Link } from "react-router";
import type { BalanceItem } from "@contract/financials";
import type { Column } from "@web/components/list";
import { Badge } from "@web/components/ui/badge";
import { countOf, formatCurrency, formatDate } from "@web/lib/format";
import { ACCOUNT_BADGE, ACCOUNT_STATUS_LABELS } from "@web/lib/labels";
import { useBalances } from "./financials-api";
import { ListCard } from "./list-card";
import { useStatusFilter } from "./use-status-filter";

const COLUMNS: ReadonlyArray<Column<BalanceItem>> = [
  {
    id: "artist",
    header: "Artist",
    cell: (b) => (
      <Link to={`/vendors/${b.vendorId}?tab=payouts`} className="text-blue-700 hover:underline">
        {b.vendorName}
      </Link>
    ),
  },
  { id: "balance", header: "Balance", className: "text-right", cell: (b) => formatCurrency(b.balance) },
  { id: "account", header: "Payout account", cell: (b) => <Badge variant={ACCOUNT_BADGE[b.accountStatus]}>{ACCOUNT_STATUS_LABELS[b.accountStatus]}</Badge> },
  { id: "last-payout", header: "Last payout", cell: (b) => (b.lastPayoutAt ? formatDate(b.lastPayoutAt) : "Never") },
];

/** 'Balances owed' (docs/product.md §15.4): artists owed money, largest first, by payout account status. */
export function BalancesCard({ enabled, live }: { enabled: boolean; live: boolean }) {
  const filter = useStatusFilter("balances", ACCOUNT_STATUS_LABELS);
  const q = useBalances(filter.status, filter.pages.cursor, { enabled, live });
  return (
    <ListCard
      title="Balances owed"
      description={q.data ? `${countOf(q.data.total, "artist")} owed ${formatCurrency(q.data.totalOwed)}, largest first` : "Artists owed money, largest first"}
      filter={filter}
      select={{ id: "balances-status", label: "Account status", allLabel: "All accounts", labels: ACCOUNT_STATUS_LABELS, className: "w-44" }}
      csv={{ label: "Export Balances CSV", kind: "balances", filterName: "accountStatus" }}
      query={q}
      rowsOf={(d) => d.balances}
      columns={COLUMNS}
      rowKey={(b) => b.vendorId}
      words={{ table: "Balances owed", pager: "Balance pages", loading: "Loading balances", error: "Failed to load balances", empty: "No artist is owed money." }}
    />
  );
}
