import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
// Types only: zod stays out of this screen's JS.
import type {
  AdminVendorsResponse,
  VendorDeleteResponse,
  VendorDetail,
  VendorListItem,
  VendorProductsResponse,
  VendorSalesResponse,
  VendorStatusFilter,
} from "@contract/vendors";
import { apiDelete, apiGet, apiPatch } from "@web/lib/api-client";

export interface VendorListParams {
  page: number;
  limit: number;
  search: string;
  status: VendorStatusFilter | "all";
}

/** Query keys of the vendors area, so each mutation invalidates exactly what it changes. */
export const vendorKeys = {
  all: ["vendors"] as const,
  lists: () => [...vendorKeys.all, "list"] as const,
  list: (params: VendorListParams) => [...vendorKeys.lists(), params] as const,
  details: () => [...vendorKeys.all, "detail"] as const,
  detail: (id: string) => [...vendorKeys.details(), id] as const,
  products: (id: string, page: number) => [...vendorKeys.detail(id), "products", page] as const,
  sales: (id: string, page: number) => [...vendorKeys.detail(id), "sales", page] as const,
};

export function vendorListPath(params: VendorListParams): string {
  const q = new URLSearchParams({ page: String(params.page), limit: String(params.limit) });
  if (params.search.trim() !== "") q.set("search", params.search.trim());
  if (params.status !== "all") q.set("status", params.status);
  return `/api/admin/vendors?${q.toString()}`;
}

export function useVendorList(params: VendorListParams, enabled = true) {
  return useQuery({
    queryKey: vendorKeys.list(params),
    enabled,
    queryFn: ({ signal }) => apiGet<AdminVendorsResponse>(vendorListPath(params), { signal }),
    // Typing a search or turning a page keeps the previous rows on screen until the next arrive.
    placeholderData: keepPreviousData,
  });
}

export function useVendorDetail(id: string, enabled = true) {
  return useQuery({
    queryKey: vendorKeys.detail(id),
    enabled,
    queryFn: ({ signal }) => apiGet<VendorDetail>(`/api/admin/vendors/${encodeURIComponent(id)}`, { signal }),
  });
}

export const VENDOR_TAB_PAGE_SIZE = 10;

export function useVendorProducts(id: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: vendorKeys.products(id, page),
    queryFn: ({ signal }) =>
      apiGet<VendorProductsResponse>(`/api/admin/vendors/${encodeURIComponent(id)}/products?page=${page}&limit=${VENDOR_TAB_PAGE_SIZE}`, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useVendorSales(id: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: vendorKeys.sales(id, page),
    queryFn: ({ signal }) =>
      apiGet<VendorSalesResponse>(`/api/admin/vendors/${encodeURIComponent(id)}/sales?page=${page}&limit=${VENDOR_TAB_PAGE_SIZE}`, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** Rewrites every cached list page (e.g. after a status change), so the row updates at once. */
function updateCachedLists(
  queryClient: ReturnType<typeof useQueryClient>,
  update: (data: AdminVendorsResponse) => AdminVendorsResponse,
): void {
  queryClient.setQueriesData<AdminVendorsResponse>({ queryKey: vendorKeys.lists() }, (data) => (data ? update(data) : data));
}

export function useSetVendorStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) =>
      apiPatch<VendorListItem>(`/api/vendors/${encodeURIComponent(id)}/status`, { isActive }),
    onSuccess: async (vendor, { id }) => {
      updateCachedLists(queryClient, (data) => ({
        ...data,
        vendors: data.vendors.map((v) => (v.id === vendor.id ? vendor : v)),
      }));
      // Counts and filtered pages come from the server: refresh them in the background.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: vendorKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: vendorKeys.detail(id), exact: true }),
      ]);
    },
  });
}

export function useDeleteVendor() {
  const queryClient = useQueryClient();
  return useMutation({
    // The UI always deletes the owner's account too (spec §7: deleteFromClerk true from the UI).
    mutationFn: (id: string) =>
      apiDelete<VendorDeleteResponse>(`/api/vendors/${encodeURIComponent(id)}?action=delete`, { deleteFromClerk: true }),
    onSuccess: async (_result, id) => {
      updateCachedLists(queryClient, (data) => ({ ...data, vendors: data.vendors.filter((v) => v.id !== id), total: Math.max(0, data.total - 1) }));
      queryClient.removeQueries({ queryKey: vendorKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: vendorKeys.lists() });
    },
  });
}

/** The message part of the spec's alerts ('Failed to … vendor: {message}'), 'Unknown error' when there is none. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : "Unknown error";
}
