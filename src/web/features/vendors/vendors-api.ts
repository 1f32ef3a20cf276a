import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type AdminVendorsResponse,
  type VendorSort,
  type VendorStatusFilter,
  bulkApproveApplicationsEndpoint,
  bulkVendorStatusEndpoint,
  decideApplicationEndpoint,
  listApplicationsEndpoint,
  type ApplicationDecision,
  deleteVendorEndpoint,
  getVendorDetailEndpoint,
  listAdminVendorsEndpoint,
  listVendorProductsEndpoint,
  listVendorSalesEndpoint,
  setVendorStatusEndpoint,
  setVendorTrustedEndpoint,
} from "@contract/vendors";
import { getVendorPayoutsEndpoint, getVendorStatementEndpoint, refreshPayoutAccountEndpoint } from "@contract/financials";
import { callApi, mutationOf } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";

export interface VendorListParams {
  page: number;
  limit: number;
  search: string;
  status: VendorStatusFilter | "all";
  /** A server order (`name`, `-revenue`, …): keyset pages from `cursor`; null: the spec's numbered pages. */
  sort?: VendorSort | null;
  cursor?: string | null;
}

/** The list call's query: search and status only when they filter something. */
export function vendorListQuery(params: VendorListParams) {
  const search = params.search.trim();
  const filters = { search: search === "" ? undefined : search, status: params.status === "all" ? undefined : params.status };
  if (params.sort) return { sort: params.sort, limit: params.limit, cursor: params.cursor ?? undefined, ...filters };
  return { page: params.page, limit: params.limit, ...filters };
}

export function useVendorList(params: VendorListParams, enabled = true) {
  return useQuery({
    queryKey: queryKeys.vendors.list(params),
    enabled,
    queryFn: ({ signal }) => callApi(listAdminVendorsEndpoint, { query: vendorListQuery(params) }, { signal }),
    // Typing a search or turning a page keeps the previous rows on screen until the next arrive.
    placeholderData: keepPreviousData,
  });
}

export function useVendorDetail(id: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.vendors.detail(id),
    enabled,
    queryFn: ({ signal }) => callApi(getVendorDetailEndpoint, { params: { id } }, { signal }),
  });
}

export const VENDOR_TAB_PAGE_SIZE = 10;

export function useVendorProducts(id: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.vendors.products(id, page),
    queryFn: ({ signal }) => callApi(listVendorProductsEndpoint, { params: { id }, query: { page, limit: VENDOR_TAB_PAGE_SIZE } }, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useVendorSales(id: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.vendors.sales(id, page),
    queryFn: ({ signal }) => callApi(listVendorSalesEndpoint, { params: { id }, query: { page, limit: VENDOR_TAB_PAGE_SIZE } }, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** Rewrites every cached list page (e.g. after a status change), so the row updates at once. */
function updateCachedLists(queryClient: ReturnType<typeof useQueryClient>, update: (data: AdminVendorsResponse) => AdminVendorsResponse): void {
  queryClient.setQueriesData<AdminVendorsResponse>({ queryKey: queryKeys.vendors.lists() }, (data) => (data ? update(data) : data));
}

/** Enables or disables a store; the definition's areas (vendors, dashboard, analytics) are refreshed after. */
export function useSetVendorStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    ...mutationOf(setVendorStatusEndpoint),
    // A blank reason is left out: a disable then answers 400 naming `reason`.
    mutationFn: ({ id, isActive, reason }: { id: string; isActive: boolean; reason?: string }) =>
      callApi(setVendorStatusEndpoint, { params: { id }, body: { isActive, ...(reason?.trim() ? { reason: reason.trim() } : {}) } }),
    onSuccess: (vendor) => {
      // The row changes at once; counts and filtered pages follow from the refetch.
      updateCachedLists(queryClient, (data) => ({ ...data, vendors: data.vendors.map((v) => (v.id === vendor.id ? { ...v, ...vendor } : v)) }));
    },
  });
}

/** Enables or disables the selected vendors at once (all or nothing on the server); the same areas refresh after. */
export function useBulkVendorStatus() {
  return useMutation({
    ...mutationOf(bulkVendorStatusEndpoint),
    mutationFn: ({ ids, isActive, reason }: { ids: string[]; isActive: boolean; reason?: string }) =>
      callApi(bulkVendorStatusEndpoint, { body: { ids, isActive, ...(reason?.trim() ? { reason: reason.trim() } : {}) } }),
  });
}

export function useDeleteVendor() {
  const queryClient = useQueryClient();
  return useMutation({
    ...mutationOf(deleteVendorEndpoint),
    // The UI always deletes the owner's account too (docs/product.md §4.3: deleteFromClerk true from the UI).
    mutationFn: (id: string) => callApi(deleteVendorEndpoint, { params: { id }, query: { action: "delete" }, body: { deleteFromClerk: true } }),
    onSuccess: (_result, id) => {
      updateCachedLists(queryClient, (data) => ({ ...data, vendors: data.vendors.filter((v) => v.id !== id), total: Math.max(0, data.total - 1) }));
      queryClient.removeQueries({ queryKey: queryKeys.vendors.detail(id) });
    },
  });
}

/** The message part of the product's alerts ('Failed to … vendor: {message}'), 'Unknown error' when there is none. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : "Unknown error";
}

export function useVendorPayouts(id: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.financials.vendor(id),
    enabled,
    queryFn: ({ signal }) => callApi(getVendorPayoutsEndpoint, { params: { id } }, { signal }),
  });
}

/** Reads the vendor's connected account from Stripe again; the financials and vendors areas refresh after. */
export function useRefreshPayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    ...mutationOf(refreshPayoutAccountEndpoint),
    mutationFn: (id: string) => callApi(refreshPayoutAccountEndpoint, { params: { id } }),
    onSuccess: (data, id) => queryClient.setQueryData(queryKeys.financials.vendor(id), data),
  });
}

export const STATEMENT_PAGE_SIZE = 25;

/** One page of the artist's statement (docs/product.md §15.8), newest first with the running balance. */
export function useVendorStatement(id: string, cursor: string | null) {
  return useQuery({
    queryKey: queryKeys.financials.statement(id, cursor),
    queryFn: ({ signal }) => callApi(getVendorStatementEndpoint, { params: { id }, query: { limit: STATEMENT_PAGE_SIZE, cursor: cursor ?? undefined } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export const APPLICATIONS_PAGE_SIZE = 20;

/** The Applications queue, oldest first, one keyset page at a time (docs/product.md §20.2). */
export function useApplications(cursor: string | null) {
  return useQuery({
    queryKey: queryKeys.vendors.applications(cursor),
    queryFn: ({ signal }) => callApi(listApplicationsEndpoint, { query: { limit: APPLICATIONS_PAGE_SIZE, cursor: cursor ?? undefined } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Approves, rejects (with the reason) or asks for changes (with the message); the vendors, dashboard and analytics areas refresh after. */
export function useDecideApplication() {
  return useMutation({
    ...mutationOf(decideApplicationEndpoint),
    mutationFn: ({ id, decision, reason }: { id: string; decision: ApplicationDecision; reason: string }) =>
      callApi(decideApplicationEndpoint, { params: { id }, body: { decision, ...(reason.trim() ? { reason: reason.trim() } : {}) } }),
  });
}

/** Approves the selected applications at once (all or nothing on the server). */
export function useBulkApproveApplications() {
  return useMutation({
    ...mutationOf(bulkApproveApplicationsEndpoint),
    mutationFn: ({ ids, reason }: { ids: string[]; reason: string }) => callApi(bulkApproveApplicationsEndpoint, { body: { ids, ...(reason.trim() ? { reason: reason.trim() } : {}) } }),
  });
}

/** Marks an artist trusted (its new listings skip review) or no longer trusted, with an optional reason. */
export function useSetVendorTrusted() {
  return useMutation({
    ...mutationOf(setVendorTrustedEndpoint),
    mutationFn: ({ id, trusted, reason }: { id: string; trusted: boolean; reason: string }) =>
      callApi(setVendorTrustedEndpoint, { params: { id }, body: { trusted, ...(reason.trim() ? { reason: reason.trim() } : {}) } }),
  });
}
