import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import {
  type ProductSort,
  type ProductStatus,
  type ReviewDecision,
  bulkApproveReviewEndpoint,
  bulkProductStatusEndpoint,
  decideReviewEndpoint,
  getProductEndpoint,
  listProductsEndpoint,
  listReviewEndpoint,
  productsSummaryEndpoint,
  setProductStatusEndpoint,
} from "@contract/products";
import { callApi, mutationOf } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";

export const PRODUCTS_PAGE_SIZE = 50;

/** The list's filters as the URL holds them ("" / "all": not filtered). */
export interface ProductFilters {
  search: string;
  status: ProductStatus | "all";
  vendorId: string;
  /** Only the vendors over the product limit (`?overLimit=true`). */
  overLimit: boolean;
}

/** The filters as the list call and the CSV export take them: only those that filter something. */
export function productsQuery(filters: ProductFilters): { search?: string; status?: ProductStatus; vendorId?: string; overLimit?: "true" } {
  return {
    ...(filters.search.trim() !== "" ? { search: filters.search.trim() } : {}),
    ...(filters.status !== "all" ? { status: filters.status } : {}),
    ...(filters.vendorId !== "" ? { vendorId: filters.vendorId } : {}),
    ...(filters.overLimit ? { overLimit: "true" as const } : {}),
  };
}

export function useProductList(filters: ProductFilters, sort: ProductSort, cursor: string | null, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.products.list(filters, sort, cursor),
    enabled,
    queryFn: ({ signal }) => callApi(listProductsEndpoint, { query: { ...productsQuery(filters), sort, limit: PRODUCTS_PAGE_SIZE, cursor: cursor ?? undefined } }, { signal }),
    // Typing a search or turning a page keeps the previous rows on screen until the next arrive.
    placeholderData: keepPreviousData,
  });
}

export function useProductsSummary(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.products.summary(), enabled, queryFn: ({ signal }) => callApi(productsSummaryEndpoint, {}, { signal }) });
}

export function useProductDetail(id: string | null) {
  return useQuery({
    queryKey: queryKeys.products.detail(id ?? ""),
    enabled: id !== null,
    queryFn: ({ signal }) => callApi(getProductEndpoint, { params: { id: id! } }, { signal }),
  });
}

/** Hides (with the reason the artist is shown) or restores one product; products, vendors, dashboard and analytics refresh after. */
export function useSetProductStatus() {
  return useMutation({
    ...mutationOf(setProductStatusEndpoint),
    mutationFn: ({ id, status, reason }: { id: string; status: "hidden" | "active"; reason?: string }) =>
      callApi(setProductStatusEndpoint, { params: { id }, body: { status, ...(reason ? { reason } : {}) } }),
  });
}

/** The same for up to 500 products at once, all or nothing. */
export function useBulkProductStatus() {
  return useMutation({
    ...mutationOf(bulkProductStatusEndpoint),
    mutationFn: ({ ids, status, reason }: { ids: string[]; status: "hidden" | "active"; reason?: string }) =>
      callApi(bulkProductStatusEndpoint, { body: { ids, status, ...(reason ? { reason } : {}) } }),
  });
}

export const REVIEW_PAGE_SIZE = 20;

/** One page of the Review queue, oldest first (docs/product.md §20.4). */
export function useReviewQueue(cursor: string | null) {
  return useQuery({
    queryKey: queryKeys.products.review(cursor),
    queryFn: ({ signal }) => callApi(listReviewEndpoint, { query: { limit: REVIEW_PAGE_SIZE, cursor: cursor ?? undefined } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Approves a listing waiting for review, or rejects it with the reason the artist is shown (and, for infringement, a takedown). */
export function useDecideReview() {
  return useMutation({
    ...mutationOf(decideReviewEndpoint),
    mutationFn: ({ id, decision, reason, infringement }: { id: string; decision: ReviewDecision; reason: string; infringement: boolean }) =>
      callApi(decideReviewEndpoint, {
        params: { id },
        body: { decision, ...(reason.trim() ? { reason: reason.trim() } : {}), ...(decision === "reject" && infringement ? { infringement: true } : {}) },
      }),
  });
}

/** Approves many listings waiting for review, all or nothing. */
export function useBulkApproveReview() {
  return useMutation({
    ...mutationOf(bulkApproveReviewEndpoint),
    mutationFn: ({ ids, reason }: { ids: string[]; reason: string }) => callApi(bulkApproveReviewEndpoint, { body: { ids, ...(reason.trim() ? { reason: reason.trim() } : {}) } }),
  });
}
