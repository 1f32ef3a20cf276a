import { MIN_PRODUCT_SEARCH_LENGTH, OVER_LIMIT_FILTER_VENDORS, type ProductStatus, type ProductsSummary } from "@contract/products";
import { FilterBar, SearchFilter, SelectFilter, type UrlSearch, useUrlParams } from "@web/components/list";
import { Button } from "@web/components/ui/button";
import { Label } from "@web/components/ui/label";
import { inputClasses } from "@web/components/ui/input";
import { formatCount } from "@web/lib/format";

const STATUSES: Array<{ value: ProductStatus | "all"; label: string }> = [
  { value: "all", label: "All statuses" },
  { value: "active", label: "Active" },
  { value: "draft", label: "Draft" },
  { value: "hidden", label: "Hidden" },
  { value: "pending_review", label: "In review" },
  { value: "rejected", label: "Rejected" },
];

/** A search too short for the name index (the server refuses it): the field says so and the list ignores it. */
export const isShortSearch = (search: string) => search !== "" && [...search].length < MIN_PRODUCT_SEARCH_LENGTH;

interface ProductFilterBarProps {
  search: UrlSearch;
  status: ProductStatus | "all";
  vendorId: string;
  /** `?overLimit=true`: only the vendors over the product limit. */
  overLimit: boolean;
  /** The vendor's name when the list or the summary knows it. */
  vendorName: string | undefined;
  summary: ProductsSummary | undefined;
  onExport: () => void;
  exporting: boolean;
}

/**
 * The catalogue's filters (docs/product.md §16): name search, status, the vendors over the product
 * limit (each one a vendor filter), the vendor in force with a way out, and the CSV export of it all.
 */
export function ProductFilterBar({ search, status, vendorId, overLimit: onlyOver, vendorName, summary, onExport, exporting }: ProductFilterBarProps) {
  const [, update] = useUrlParams();
  const overLimit = summary?.overLimit.top ?? [];
  const overCount = summary?.overLimit.vendors ?? 0;
  const overLimitValue = overLimit.some((v) => v.id === vendorId) ? vendorId : onlyOver ? "over" : "all";
  const chooseOver = (value: string) => update(value === "all" ? { vendorId: null, overLimit: null } : value === "over" ? { vendorId: null, overLimit: "true" } : { vendorId: value, overLimit: null });
  return (
    <div className="grid gap-2">
      <FilterBar>
        <SearchFilter id="product-search" label="Search products" placeholder="Part of a product's name" search={search} />
        <SelectFilter id="product-status" label="Status" param="status" value={status} options={STATUSES} />
        <div className="grid gap-1">
          <Label htmlFor="product-over-limit">Vendors over the product limit</Label>
          <select id="product-over-limit" className={inputClasses} value={overLimitValue} disabled={overLimit.length === 0 && !onlyOver} onChange={(e) => chooseOver(e.target.value)}>
            <option value="all">{overLimit.length === 0 ? "None over the limit" : `Any vendor (${formatCount(overCount)} over)`}</option>
            {(overLimit.length > 0 || onlyOver) && <option value="over">All vendors over the limit</option>}
            {overLimit.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name} ({formatCount(v.listedProducts)} listed)
              </option>
            ))}
          </select>
        </div>
        <Button variant="outline" onClick={onExport} disabled={exporting}>
          {exporting ? "Exporting…" : "Export CSV"}
        </Button>
      </FilterBar>
      {isShortSearch(search.input.trim()) && <p className="text-sm text-gray-600">Type at least {MIN_PRODUCT_SEARCH_LENGTH} characters to search by name.</p>}
      {onlyOver && vendorId === "" && (
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="product-over-limit-filter">
          Only the products of the vendors over the product limit
          {overCount > OVER_LIMIT_FILTER_VENDORS ? ` (the ${OVER_LIMIT_FILTER_VENDORS} of ${formatCount(overCount)} with the most listed products)` : ""}
          <Button size="sm" variant="link" className="px-0" onClick={() => chooseOver("all")}>
            Show every vendor
          </Button>
        </p>
      )}
      {vendorId !== "" && (
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="product-vendor-filter">
          Only the products of <strong>{vendorName ?? "this vendor"}</strong>
          <Button size="sm" variant="link" className="px-0" onClick={() => update({ vendorId: null })}>
            Show every vendor
          </Button>
        </p>
      )}
    </div>
  );
}
