import { useMemo, useState } from "react";
import { bulkProductStatusEndpoint, PRODUCT_SORTS, PRODUCTS_EXPORT_KIND, type ProductStatus } from "@contract/products";
import { useEndpointAccess } from "@web/app/current-user";
import { ListTable, Pager, RefreshButton, serverSort, useKeysetPages, useRowSelection, useSortParam, useUrlParams, useUrlSearch } from "@web/components/list";
import { PageHeader } from "@web/components/ui/page-header";
import { UrlTabs } from "@web/components/ui/url-tabs";
import { apiErrorMessage } from "@web/lib/api-client";
import { useCsvExport } from "@web/lib/download-export";
import { countOf, formatCount } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { BulkBar } from "./bulk-bar";
import { type ModerationTarget, ModerationDialog } from "./moderation-dialog";
import { productColumns } from "./product-columns";
import { ProductDrawer } from "./product-drawer";
import { isShortSearch, ProductFilterBar } from "./product-filters";
import { type ProductFilters, productsQuery, useProductList, useProductsSummary } from "./products-api";
import { ReviewTab } from "./review-tab";
import { SummaryCards } from "./summary-cards";

function readStatus(value: string | null): ProductStatus | "all" {
  return value === "active" || value === "draft" || value === "hidden" || value === "pending_review" || value === "rejected" ? value : "all";
}

/**
 * The products catalogue (docs/product.md §16): summary cards; the whole marketplace's products
 * searched, filtered, sorted and paged by keyset with everything in the URL; a product's figures
 * and history over the list (`?product=`); hide with a reason and restore, one or many at once; the
 * Review tab (`?tab=review`): new listings waiting for review (§20.4).
 */
export default function ProductsPage() {
  const [searchParams, update] = useUrlParams();
  const search = useUrlSearch();
  const pages = useKeysetPages();
  const sortState = useSortParam();
  const status = readStatus(searchParams.get("status"));
  const vendorId = searchParams.get("vendorId") ?? "";
  const overLimit = searchParams.get("overLimit") === "true";
  const productId = searchParams.get("product");
  const filters: ProductFilters = { search: isShortSearch(search.search) ? "" : search.search, status, vendorId, overLimit };
  // The table's sort (`?sort=price`, `?sort=-sold`) as the API names it; none is newest first.
  const sort = serverSort(sortState, PRODUCT_SORTS) ?? "newest";

  // docs/product.md §2.5: data loading starts 100 ms after the screen opens.
  const ready = useLoadDelay();
  // Until the URL catches up with a new search, ask for its first page.
  const list = useProductList(filters, sort, search.settled ? pages.cursor : null, ready);
  const summary = useProductsSummary(ready);
  const rows = useMemo(() => list.data?.products ?? [], [list.data]);
  const selection = useRowSelection(useMemo(() => rows.map((p) => p.id), [rows]));
  const { reason: readOnly } = useEndpointAccess(bulkProductStatusEndpoint);
  const csv = useCsvExport("Failed to export products");
  const [target, setTarget] = useState<ModerationTarget | null>(null);

  const open = (id: string | null) => update({ product: id }, { resetPages: "none", push: id !== null });
  const columns = productColumns({
    onOpen: (p) => open(p.id),
    onHide: (p) => setTarget({ action: "hide", products: [p], bulk: false }),
    onRestore: (p) => setTarget({ action: "restore", products: [p], bulk: false }),
  });
  const vendorName = rows.find((p) => p.vendorId === vendorId)?.vendorName ?? summary.data?.overLimit.top.find((v) => v.id === vendorId)?.name;
  const filtered = Object.keys(productsQuery(filters)).length > 0;

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <PageHeader title="Products" description="Every product of the marketplace: find it, see who sells it and how, take down what breaks the rules.">
        <RefreshButton query={list} />
      </PageHeader>

      <SummaryCards summary={summary.data} />

      <UrlTabs
        ownParams
        fallback="all"
        tabs={[
          {
            value: "all",
            label: "All products",
            panel: (
              <div className="grid gap-6">
                <ProductFilterBar
                  search={search}
                  status={status}
                  vendorId={vendorId}
                  overLimit={overLimit}
                  vendorName={vendorName}
                  summary={summary.data}
                  exporting={csv.exporting}
                  onExport={() => csv.run(PRODUCTS_EXPORT_KIND, productsQuery(filters))}
                />

                <BulkBar selected={rows.filter((p) => selection.isSelected(p.id))} readOnly={readOnly} onAction={setTarget} onClear={selection.clear} />

                <ListTable
                  query={list}
                  rowsOf={(data) => data.products}
                  loadingLabel="Loading products"
                  errorTitle="Error Loading Products"
                  errorMessage={apiErrorMessage}
                  emptyText={filtered ? "No products match these filters." : "No products yet."}
                  footer={(data) => {
                    const matches = data.totalCapped ? `${formatCount(data.total)}+ products match (refine the filters to narrow them down)` : countOf(data.total, "product");
                    return <Pager label="Product pages" summary={`${matches} · page ${pages.page}`} {...pages.controls(list)} />;
                  }}
                  framed
                  label="Products"
                  columns={columns}
                  rowKey={(p) => p.id}
                  rowName={(p) => p.name}
                  rowProps={(p) => ({ "data-testid": `product-row-${p.id}` })}
                  sort={sortState}
                  selection={selection}
                />
              </div>
            ),
          },
          { value: "review", label: "Review", badge: summary.data?.counts.pendingReview, panel: <ReviewTab /> },
        ]}
      />

      <ModerationDialog
        target={target}
        onClose={() => setTarget(null)}
        onDone={() => {
          setTarget(null);
          selection.clear();
        }}
      />
      <ProductDrawer
        productId={productId}
        onClose={() => open(null)}
        onHide={(p) => setTarget({ action: "hide", products: [p], bulk: false })}
        onRestore={(p) => setTarget({ action: "restore", products: [p], bulk: false })}
        onOnlyVendor={(id) => update({ vendorId: id, product: null })}
      />
    </section>
  );
}
