import { useQuery } from "@tanstack/react-query";
import { type AnalyticsPeriod, analyticsEndpoint, type SalesGrouping, salesEndpoint, topProductsEndpoint, topVendorsEndpoint } from "@contract/analytics";
import { callApi } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";

/** The top lists show ten rows (docs/product.md §18.2). */
export const TOP_ROWS = 10;

/** Analytics of one period; failures are logged to the console (docs/product.md §6) and shown as an error state. */
export function useAnalytics(days: AnalyticsPeriod, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.analytics.period(days),
    queryFn: async ({ signal }) => {
      try {
        return await callApi(analyticsEndpoint, { query: { days } }, { signal });
      } catch (error) {
        if (!signal.aborted) console.error("Failed to load analytics:", error);
        throw error;
      }
    },
    enabled,
  });
}

/** Sales per week or month of the period (the chart's grouping). */
export function useSales(days: AnalyticsPeriod, groupBy: SalesGrouping, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.analytics.sales(days, groupBy), queryFn: ({ signal }) => callApi(salesEndpoint, { query: { days, groupBy } }, { signal }), enabled });
}

export function useTopProducts(days: AnalyticsPeriod, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.analytics.top("products", days), queryFn: ({ signal }) => callApi(topProductsEndpoint, { query: { days, limit: TOP_ROWS } }, { signal }), enabled });
}

export function useTopVendors(days: AnalyticsPeriod, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.analytics.top("vendors", days), queryFn: ({ signal }) => callApi(topVendorsEndpoint, { query: { days, limit: TOP_ROWS } }, { signal }), enabled });
}
