import { useState } from "react";
import type { VendorListItem, VendorStatusFilter } from "@contract/vendors";
import { PageHeader } from "@web/components/ui/page-header";
import { StatCard } from "@web/components/ui/stat-card";
import { toast } from "@web/components/ui/toast";
import { DataTable, FilterBar, ListState, Pager, pageCountOf, RefreshButton, SearchFilter, SelectFilter, useNumberedPages, useUrlParams, useUrlSearch } from "@web/components/list";
import { countOf, formatCount } from "@web/lib/format";
import { usePublicConfig } from "@web/lib/use-public-config";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { VendorDeleteDialog, VendorStatusDialog } from "./vendor-dialogs";
import { useVendorColumns } from "./vendor-columns";
import { errorMessage, useDeleteVendor, useSetVendorStatus, useVendorList, type VendorListParams } from "./vendors-api";

const PAGE_SIZE = 20;
const STATUSES: Array<{ value: VendorListParams["status"]; label: string }> = [
  { value: "all", label: "All vendors" },
  { value: "active", label: "Active" },
  { value: "inactive", label: "Inactive" },
  { value: "internal", label: "Internal" },
];
const COUNTS = [
  ["Total", "total"],
  ["Active", "active"],
  ["Inactive", "inactive"],
  ["Internal", "internal"],
] as const;

function readStatus(value: string | null): VendorListParams["status"] {
  return value === "active" || value === "inactive" || value === "internal" ? (value satisfies VendorStatusFilter) : "all";
}

/** Vendor list (docs/product.md §4.1): counts, server-side search/filter/pagination, enable/disable and delete. */
export default function VendorsPage() {
  // Search, filter and page live in the URL, so reload and back keep them.
  const [searchParams] = useUrlParams();
  const pages = useNumberedPages();
  const status = readStatus(searchParams.get("status"));
  // docs/product.md §4.1: the search runs on the server 300 ms after typing stops, from page 1.
  const search = useUrlSearch();
  // Until the URL catches up with a new search, ask for its first page.
  const params: VendorListParams = { page: search.settled ? pages.page : 1, limit: PAGE_SIZE, search: search.search, status };

  // docs/product.md §2.5: data loading starts 100 ms after the screen opens.
  const ready = useLoadDelay();
  const list = useVendorList(params, ready);
  const config = usePublicConfig();
  const setStatus = useSetVendorStatus();
  const deleteVendor = useDeleteVendor();
  const [statusTarget, setStatusTarget] = useState<VendorListItem | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<VendorListItem | null>(null);
  const columns = useVendorColumns({ storefrontUrl: config.data?.storefrontUrl ?? "", onStatus: setStatusTarget, onDelete: setDeleteTarget });

  const confirmStatus = () => {
    const vendor = statusTarget;
    setStatusTarget(null);
    if (!vendor) return;
    const isActive = !vendor.isActive;
    setStatus.mutate(
      { id: vendor.id, isActive },
      {
        onSuccess: () => toast({ title: `${vendor.name} ${isActive ? "enabled" : "disabled"}`, variant: "success" }),
        onError: (error) =>
          toast({ title: `Failed to ${isActive ? "enable" : "disable"} vendor: ${errorMessage(error)}`, variant: "destructive" }),
      },
    );
  };

  const confirmDelete = () => {
    const vendor = deleteTarget;
    setDeleteTarget(null);
    if (!vendor) return;
    deleteVendor.mutate(vendor.id, {
      onSuccess: () => toast({ title: `${vendor.name} deleted`, variant: "success" }),
      onError: (error) => toast({ title: `Failed to delete vendor: ${errorMessage(error)}`, variant: "destructive" }),
    });
  };

  const counts = list.data?.counts;
  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <PageHeader title="Vendors">
        <RefreshButton query={list} />
      </PageHeader>

      <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {COUNTS.map(([title, key]) => (
          <StatCard key={key} title={title} value={counts ? formatCount(counts[key]) : "—"} valueTestId={`vendor-count-${key}`} />
        ))}
      </div>

      <FilterBar>
        <SearchFilter id="vendor-search" label="Search vendors" placeholder="Name, owner, email or store slug" search={search} />
        <SelectFilter id="vendor-status" label="Status" param="status" value={status} options={STATUSES} />
      </FilterBar>

      <ListState
        query={list}
        isEmpty={(data) => data.vendors.length === 0}
        loadingLabel="Loading vendors"
        errorTitle="Error Loading Vendors"
        errorMessage={(error) => error.message || "Failed to load vendors"}
        emptyText="No vendors found. Create invite codes to allow artists to join."
        footer={(data) => {
          const pageCount = pageCountOf(data.total, PAGE_SIZE);
          // docs/product.md §4.1: '{total} vendors · page {n} of {pages}', or '1,000+ vendors match (…)' past the count's cap.
          const matches = data.totalCapped ? `${formatCount(data.total)}+ vendors match (refine the search to narrow them down)` : countOf(data.total, "vendor");
          return <Pager label="Vendor pages" summary={`${matches} · page ${params.page} of ${pageCount}`} {...pages.controls(pageCount)} page={params.page} />;
        }}
      >
        {(data) => <DataTable framed columns={columns} rows={data.vendors} rowKey={(v) => v.id} rowProps={(v) => ({ "data-testid": `vendor-row-${v.slug}` })} busy={list.isFetching} />}
      </ListState>

      <VendorStatusDialog vendor={statusTarget} nextActive={statusTarget ? !statusTarget.isActive : false} onCancel={() => setStatusTarget(null)} onConfirm={confirmStatus} />
      <VendorDeleteDialog
        vendor={deleteTarget}
        providerName={config.data?.authProviderName ?? "Authentication Provider"}
        onCancel={() => setDeleteTarget(null)}
        onConfirm={confirmDelete}
      />
    </section>
  );
}
