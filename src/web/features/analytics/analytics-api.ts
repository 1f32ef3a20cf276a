import { useQuery } from "@tanstack/react-query";
import { type AnalyticsPeriod, analyticsEndpoint } from "@contract/analytics";
import { callApi } from "@web/lib/api-client";

/** Query keys of the analytics area: one entry per period. */
export const analyticsKeys = {
  all: ["analytics"] as const,
  period: (days: AnalyticsPeriod) => [...analyticsKeys.all, days] as const,
};

/** Analytics of one period; failures are logged to the console (docs/product.md §6) and shown as an error state. */
export function useAnalytics(days: AnalyticsPeriod, enabled: boolean) {
  return useQuery({
    queryKey: analyticsKeys.period(days),
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
