import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type CreateRefundRequest, type OrderSort, type OrderStatusFilter, checkRefundEndpoint, createRefundEndpoint, getOrderEndpoint, listOrdersEndpoint } from "@contract/orders";
import { listAdminVendorsEndpoint } from "@contract/vendors";
import { callApi } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";
import { byId, useApiMutation } from "@web/lib/use-api-mutation";

export const ORDERS_PAGE_SIZE = 50;

/** The list's filters as the URL holds them ("" / "all": not filtered). */
export interface OrderFilters {
  /** The buyer's e-mail or the storefront's order id. */
  search: string;
  status: OrderStatusFilter | "all";
  vendorId: string;
  /** UTC days (YYYY-MM-DD), both included. */
  from: string;
  to: string;
}

/** The filters as the list call and the CSV export take them: only those that filter something. */
export function ordersQuery(filters: OrderFilters): { search?: string; status?: OrderStatusFilter; vendorId?: string; from?: string; to?: string } {
  return {
    ...(filters.search.trim() !== "" ? { search: filters.search.trim() } : {}),
    ...(filters.status !== "all" ? { status: filters.status } : {}),
    ...(filters.vendorId !== "" ? { vendorId: filters.vendorId } : {}),
    ...(filters.from !== "" ? { from: filters.from } : {}),
    ...(filters.to !== "" ? { to: filters.to } : {}),
  };
}

export function useOrderList(filters: OrderFilters, sort: OrderSort, cursor: string | null, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.orders.list(filters, sort, cursor),
    enabled,
    queryFn: ({ signal }) => callApi(listOrdersEndpoint, { query: { ...ordersQuery(filters), sort, limit: ORDERS_PAGE_SIZE, cursor: cursor ?? undefined } }, { signal }),
    // Typing a search or turning a page keeps the previous rows on screen until the next arrive.
    placeholderData: keepPreviousData,
  });
}

export function useOrderDetail(id: string | null) {
  return useQuery({
    queryKey: queryKeys.orders.detail(id ?? ""),
    enabled: id !== null,
    queryFn: ({ signal }) => callApi(getOrderEndpoint, { params: { id: id! } }, { signal }),
  });
}

/** Artists matching a search, for the artist filter (the vendors list, searched by name). */
export function useArtistOptions(search: string) {
  return useQuery({
    queryKey: queryKeys.vendors.orderArtists(search),
    enabled: search.length > 0,
    queryFn: ({ signal }) => callApi(listAdminVendorsEndpoint, { query: { search, limit: 8 } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Refund lines of a storefront order (or all of it) through Stripe; the order, financials and the artist's figures refresh. */
export function useCreateRefund() {
  return useApiMutation(createRefundEndpoint, (v: { id: string; body: CreateRefundRequest }) => ({ params: { id: v.id }, body: v.body }));
}

/** 'Check with Stripe' on a refund whose outcome is not recorded (by the panel's refund id): what Stripe lists, never a second refund. */
export const useCheckRefund = () => useApiMutation(checkRefundEndpoint, byId);
