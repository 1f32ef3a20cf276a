import { useState } from "react";
import { type AdminVendorRow, type AdminVendorsResponse, bulkVendorStatusEndpoint, VENDOR_SORTS, VENDORS_EXPORT_KIND, type VendorStatusFilter } from "@contract/vendors";
import { Button } from "@web/components/ui/button";
import { useCsvExport } from "@web/lib/download-export";
import { useEndpointAccess } from "@web/app/current-user";
import { PageHeader } from "@web/components/ui/page-header";
import { StatCard } from "@web/components/ui/stat-card";
import { UrlTabs } from "@web/components/ui/url-tabs";
import { toast } from "@web/components/ui/toast";
import {
  FilterBar,
  ListTable,
  Pager,
  pageCountOf,
  RefreshButton,
  SearchFilter,
  SelectFilter,
  serverSort,
  useKeysetPages,
  useNumberedPages,
  useQueryRowSelection,
  useSortParam,
  useUrlParams,
  useUrlSearch,
} from "@web/components/list";
import { countOf, formatCount } from "@web/lib/format";
import { usePublicConfig } from "@web/lib/use-public-config";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { VendorBulkActions } from "./vendor-bulk-actions";
import { ApplicationsTab } from "./applications-tab";
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

const vendorIds = (list: AdminVendorsResponse) => list.vendors.map((v) => v.id);

/**
 * Vendors (docs/product.md §4.1): counts, then two tabs: the list (server-side search/filter/sort/
 * pagination, enable/disable one or many, delete, CSV) and the Applications queue with its count
 * (§20.2).
 */
export default function VendorsPage() {
  // Search, filter, sort and page live in the URL, so reload and back keep them.
  const [searchParams] = useUrlParams();
  const numbered = useNumberedPages();
  const keyset = useKeysetPages();
  const sortState = useSortParam();
  // The server's order for the sorted header, or null for the spec's default (newest joined first, numbered pages).
  const sort = serverSort(sortState, VENDOR_SORTS);
  const status = readStatus(searchParams.get("status"));
  // docs/product.md §4.1: the search runs on the server 300 ms after typing stops, from page 1.
  const search = useUrlSearch();
  // Until the URL catches up with a new search, ask for its first page. A sorted list pages by cursor.
  const params: VendorListParams = sort
    ? { page: 1, limit: PAGE_SIZE, search: search.search, status, sort, cursor: search.settled ? keyset.cursor : null }
    : { page: search.settled ? numbered.page : 1, limit: PAGE_SIZE, search: search.search, status };
  const csv = useCsvExport("Export failed");

  // docs/product.md §2.5: data loading starts 100 ms after the screen opens.
  const ready = useLoadDelay();
  const list = useVendorList(params, ready);
  const config = usePublicConfig();
  const { allowed: canWrite } = useEndpointAccess(bulkVendorStatusEndpoint);
  const setStatus = useSetVendorStatus();
  const deleteVendor = useDeleteVendor();
  const [statusTarget, setStatusTarget] = useState<AdminVendorRow | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<AdminVendorRow | null>(null);
  const selection = useQueryRowSelection(list, vendorIds);
  const columns = useVendorColumns({ storefrontUrl: config.data?.storefrontUrl ?? "", onStatus: setStatusTarget, onDelete: setDeleteTarget });

  const confirmStatus = (reason: string) => {
    const vendor = statusTarget;
    setStatusTarget(null);
    if (!vendor) return;
    const isActive = !vendor.isActive;
    setStatus.mutate(
      { id: vendor.id, isActive, reason },
      {
        onSuccess: () => toast({ title: `${vendor.name} ${isActive ? "enabled" : "disabled"}`, variant: "success" }),
        onError: (error) => toast({ title: `Failed to ${isActive ? "enable" : "disable"} vendor: ${errorMessage(error)}`, variant: "destructive" }),
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
        <Button variant="outline" disabled={csv.exporting} onClick={() => csv.run(VENDORS_EXPORT_KIND, { search: search.search.trim(), status: status === "all" ? undefined : status })}>
          Export CSV
        </Button>
        <RefreshButton query={list} />
      </PageHeader>

      <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {COUNTS.map(([title, key]) => (
          <StatCard key={key} title={title} value={counts ? formatCount(counts[key]) : "—"} valueTestId={`vendor-count-${key}`} />
        ))}
      </div>

      <UrlTabs
        ownParams
        fallback="vendors"
        tabs={[
          {
            value: "vendors",
            label: "All vendors",
            panel: (
              <div className="grid gap-6">
                <FilterBar>
                  <SearchFilter id="vendor-search" label="Search vendors" placeholder="Name, owner, email or store slug" search={search} />
                  <SelectFilter id="vendor-status" label="Status" param="status" value={status} options={STATUSES} />
                </FilterBar>

                <VendorBulkActions selection={selection} />

                <ListTable
                  query={list}
                  rowsOf={(data) => data.vendors}
                  loadingLabel="Loading vendors"
                  errorTitle="Error Loading Vendors"
                  errorMessage={(error) => error.message || "Failed to load vendors"}
                  emptyText="No vendors found. Create invite codes to allow artists to join."
                  footer={(data) => {
                    const pageCount = pageCountOf(data.total, PAGE_SIZE);
                    // docs/product.md §4.1: '{total} vendors · page {n} of {pages}', or '1,000+ vendors match (…)' past the count's cap.
                    const matches = data.totalCapped ? `${formatCount(data.total)}+ vendors match (refine the search to narrow them down)` : countOf(data.total, "vendor");
                    if (sort) return <Pager label="Vendor pages" summary={`${matches} · page ${keyset.page} of ${pageCount}`} {...keyset.controls(list)} />;
                    return <Pager label="Vendor pages" summary={`${matches} · page ${params.page} of ${pageCount}`} {...numbered.controls(pageCount)} page={params.page} />;
                  }}
                  framed
                  label="Vendors"
                  columns={columns}
                  rowKey={(v) => v.id}
                  rowName={(v) => v.name}
                  rowProps={(v) => ({ "data-testid": `vendor-row-${v.slug}` })}
                  sort={sortState}
                  selection={canWrite ? selection : undefined}
                />
              </div>
            ),
          },
          { value: "applications", label: "Applications", badge: counts?.applications, panel: <ApplicationsTab /> },
        ]}
      />

      <VendorStatusDialog vendor={statusTarget} nextActive={statusTarget ? !statusTarget.isActive : false} onCancel={() => setStatusTarget(null)} onConfirm={confirmStatus} />
      <VendorDeleteDialog vendor={deleteTarget} providerName={config.data?.authProviderName ?? "Authentication Provider"} onCancel={() => setDeleteTarget(null)} onConfirm={confirmDelete} />
    </section>
  );
}
