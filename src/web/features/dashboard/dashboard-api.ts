import { useQuery } from "@tanstack/react-query";
import { dashboardStatsEndpoint } from "@contract/dashboard";
import { callApi } from "@web/lib/api-client";

/** Query keys of the dashboard area (mutations that change its figures name "dashboard" in their definition's `invalidates`). */
export const dashboardKeys = {
  all: ["dashboard"] as const,
  stats: () => [...dashboardKeys.all, "stats"] as const,
};

/** The dashboard's figures; `enabled` is false during the product's 100 ms start delay. */
export function useDashboardStats(enabled: boolean) {
  return useQuery({ queryKey: dashboardKeys.stats(), queryFn: ({ signal }) => callApi(dashboardStatsEndpoint, {}, { signal }), enabled });
}
