import { useCallback, useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { VendorListItem, VendorStatusFilter } from "@contract/vendors";
import { Badge } from "@web/components/ui/badge";
import { Button, buttonVariants } from "@web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { inputClasses, Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Spinner } from "@web/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { toast } from "@web/components/ui/toast";
import { formatDate } from "@web/lib/format";
import { storefrontLink, usePublicConfig } from "@web/lib/use-public-config";
import { useDebouncedValue } from "@web/lib/use-debounced-value";
import { VendorDeleteDialog, VendorStatusDialog } from "./vendor-dialogs";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { errorMessage, useDeleteVendor, useSetVendorStatus, useVendorList, type VendorListParams } from "./vendors-api";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { useWriteAccess } from "@web/app/current-user";

const PAGE_SIZE = 20;
const SEARCH_DEBOUNCE_MS = 300;
const STATUSES: Array<{ value: VendorListParams["status"]; label: string }> = [
  { value: "all", label: "All vendors" },
  { value: "active", label: "Active" },
  { value: "inactive", label: "Inactive" },
  { value: "internal", label: "Internal" },
];

function readStatus(value: string | null): VendorListParams["status"] {
  return value === "active" || value === "inactive" || value === "internal" ? (value satisfies VendorStatusFilter) : "all";
}

/** Vendor list (docs/product.md §4.1): counts, server-side search/filter/pagination, enable/disable and delete. */
export default function VendorsPage() {
  // Search, filter and page live in the URL, so reload and back keep them.
  const [searchParams, setSearchParams] = useSearchParams();
  const status = readStatus(searchParams.get("status"));
  const page = Math.max(1, Number.parseInt(searchParams.get("page") ?? "1", 10) || 1);
  const [searchInput, setSearchInput] = useState(searchParams.get("search") ?? "");
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const urlSearch = searchParams.get("search") ?? "";
  // Until the URL catches up with a new search, ask for its first page.
  const params: VendorListParams = { page: search === urlSearch ? page : 1, limit: PAGE_SIZE, search, status };

  // docs/product.md §2.5: data loading starts 100 ms after the screen opens.
  const ready = useLoadDelay();
  const list = useVendorList(params, ready);
  const config = usePublicConfig();
  const setStatus = useSetVendorStatus();
  const deleteVendor = useDeleteVendor();
  // Viewers see the actions disabled, with the reason (docs/product.md §1.3).
  const { canWrite, reason: readOnly } = useWriteAccess();
  const [statusTarget, setStatusTarget] = useState<VendorListItem | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<VendorListItem | null>(null);

  const updateParams = useCallback(
    (next: Partial<{ search: string; status: string; page: number }>) => {
      setSearchParams(
        (prev) => {
          const merged = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(next)) {
            if (value === "" || value === "all" || (key === "page" && value === 1)) merged.delete(key);
            else merged.set(key, String(value));
          }
          return merged;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );
  // Keep the URL in step with the debounced search (and go back to page 1 when it changes).
  useEffect(() => {
    if (search !== urlSearch) updateParams({ search, page: 1 });
  }, [search, urlSearch, updateParams]);

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

  const data = list.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const storefrontUrl = config.data?.storefrontUrl ?? "";

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 id="page-title" className="text-2xl font-bold">
          Vendors
        </h1>
        <Button variant="outline" onClick={() => void list.refetch()} disabled={list.isFetching}>
          Refresh
        </Button>
      </div>

      <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {(
          [
            ["Total", data?.counts.total],
            ["Active", data?.counts.active],
            ["Inactive", data?.counts.inactive],
            ["Internal", data?.counts.internal],
          ] as const
        ).map(([label, value]) => (
          <Card key={label}>
            <CardHeader className="pb-2">
              <CardTitle className="text-sm font-medium text-gray-600">{label}</CardTitle>
            </CardHeader>
            <CardContent>
              <p className="text-2xl font-bold" data-testid={`vendor-count-${label.toLowerCase()}`}>
                {value === undefined ? "—" : value.toLocaleString("en-US")}
              </p>
            </CardContent>
          </Card>
        ))}
      </div>

      <div className="flex flex-wrap items-end gap-4">
        <div className="grid min-w-64 flex-1 gap-1">
          <Label htmlFor="vendor-search">Search vendors</Label>
          <Input
            id="vendor-search"
            type="search"
            placeholder="Name, owner, email or store slug"
            value={searchInput}
            onChange={(e) => setSearchInput(e.target.value)}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="vendor-status">Status</Label>
          <select
            id="vendor-status"
            className={inputClasses}
            value={status}
            onChange={(e) => updateParams({ status: e.target.value, page: 1 })}
          >
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      {list.isPending ? (
        <Spinner className="py-12" label="Loading vendors" />
      ) : list.isError ? (
        <LoadErrorCard
          title="Error Loading Vendors"
          message={list.error.message || "Failed to load vendors"}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : data && data.vendors.length === 0 ? (
        <Card>
          <CardContent className="py-10 text-center text-gray-600">
            No vendors found. Create invite codes to allow artists to join.
          </CardContent>
        </Card>
      ) : (
        data && (
          <div className="grid gap-3">
            <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white" aria-busy={list.isFetching}>
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Vendor</TableHead>
                    <TableHead>Owner</TableHead>
                    <TableHead>Email</TableHead>
                    <TableHead>Store URL</TableHead>
                    <TableHead>Joined</TableHead>
                    <TableHead>
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.vendors.map((v) => {
                    const storeUrl = storefrontLink(storefrontUrl, `/${v.slug}`);
                    return (
                      <TableRow key={v.id} data-testid={`vendor-row-${v.slug}`}>
                        <TableCell>
                          <div className="flex flex-wrap items-center gap-2">
                            <Link to={`/vendors/${encodeURIComponent(v.id)}`} className="font-medium text-blue-700 hover:underline">
                              {v.name}
                            </Link>
                            <Badge variant={v.isActive ? "success" : "destructive"}>{v.isActive ? "Active" : "Inactive"}</Badge>
                            {v.isInternal && <Badge variant="info">Internal</Badge>}
                          </div>
                        </TableCell>
                        <TableCell>{v.owner}</TableCell>
                        <TableCell>{v.email}</TableCell>
                        <TableCell className="max-w-56 truncate">{storeUrl}</TableCell>
                        <TableCell>{formatDate(v.joinedDate)}</TableCell>
                        <TableCell>
                          <div className="flex justify-end gap-2">
                            <a
                              href={storeUrl}
                              target="_blank"
                              rel="noopener noreferrer"
                              className={buttonVariants({ variant: "outline", size: "sm" })}
                              aria-label={`View store of ${v.name} (opens in a new tab)`}
                            >
                              View Store
                            </a>
                            <DisabledReason reason={readOnly}>
                              <Button size="sm" variant="outline" disabled={!canWrite} onClick={() => setStatusTarget(v)} aria-label={`${v.isActive ? "Disable" : "Enable"} ${v.name}`}>
                                {v.isActive ? "Disable" : "Enable"}
                              </Button>
                            </DisabledReason>
                            <DisabledReason reason={readOnly}>
                              <Button size="sm" variant="destructive" disabled={!canWrite} onClick={() => setDeleteTarget(v)} aria-label={`Delete ${v.name}`}>
                                Delete
                              </Button>
                            </DisabledReason>
                          </div>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </div>
            <nav aria-label="Vendor pages" className="flex items-center justify-between gap-2 text-sm text-gray-600">
              <span>
                {data.total.toLocaleString("en-US")}
                {data.totalCapped ? "+ vendors match (refine the search to narrow them down)" : data.total === 1 ? " vendor" : " vendors"} · page{" "}
                {params.page} of {pageCount}
              </span>
              <div className="flex gap-2">
                <Button size="sm" variant="outline" disabled={params.page <= 1} onClick={() => updateParams({ page: params.page - 1 })}>
                  Previous
                </Button>
                <Button size="sm" variant="outline" disabled={params.page >= pageCount} onClick={() => updateParams({ page: params.page + 1 })}>
                  Next
                </Button>
              </div>
            </nav>
          </div>
        )
      )}

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
