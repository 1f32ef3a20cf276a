import { ORDER_STATUS_FILTERS, type OrderStatusFilter } from "@contract/orders";
import { FilterBar, SearchFilter, SelectFilter, type UrlSearch, useUrlParams } from "@web/components/list";
import { Button } from "@web/components/ui/button";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { ArtistFilter } from "./artist-filter";

const STATUS_LABELS: Record<OrderStatusFilter, string> = { paid: "Paid", partially_refunded: "Partly refunded", refunded: "Refunded", cancelled: "Cancelled", disputed: "Disputed" };
const STATUSES: Array<{ value: OrderStatusFilter | "all"; label: string }> = [{ value: "all", label: "All statuses" }, ...ORDER_STATUS_FILTERS.map((s) => ({ value: s, label: STATUS_LABELS[s] }))];

interface OrderFilterBarProps {
  search: UrlSearch;
  status: OrderStatusFilter | "all";
  vendorId: string;
  /** The artist's name when the list shows it. */
  vendorName: string | undefined;
  from: string;
  to: string;
  onExport: () => void;
  exporting: boolean;
}

/** A day of the date range, kept in the URL (`?from=`, `?to=`); clearing the field removes it. */
function DayFilter({ id, label, param, value }: { id: string; label: string; param: "from" | "to"; value: string }) {
  const [, update] = useUrlParams();
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="date" value={value} onChange={(e) => update({ [param]: e.target.value === "" ? null : e.target.value })} />
    </div>
  );
}

/**
 * The Orders list's filters (docs/product.md "Orders"): one search for the buyer's e-mail or the
 * storefront's order id, the artist by name, status, placed from/to (UTC days, both included), the artist in force
 * with a way out, and the CSV export of it all.
 */
export function OrderFilterBar({ search, status, vendorId, vendorName, from, to, onExport, exporting }: OrderFilterBarProps) {
  const [, update] = useUrlParams();
  return (
    <div className="grid gap-2">
      <FilterBar>
        <SearchFilter id="order-search" label="Search orders" placeholder="Buyer's e-mail or the storefront's order id" search={search} />
        <ArtistFilter />
        <SelectFilter id="order-status" label="Status" param="status" value={status} options={STATUSES} />
        <DayFilter id="order-from" label="Placed from" param="from" value={from} />
        <DayFilter id="order-to" label="Placed to" param="to" value={to} />
        <Button variant="outline" onClick={onExport} disabled={exporting}>
          {exporting ? "Exporting…" : "Export CSV"}
        </Button>
      </FilterBar>
      {vendorId !== "" && (
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="order-vendor-filter">
          Only the orders of <strong>{vendorName ?? "this artist"}</strong>
          <Button size="sm" variant="link" className="px-0" onClick={() => update({ vendorId: null })}>
            Show every artist
          </Button>
        </p>
      )}
    </div>
  );
}
