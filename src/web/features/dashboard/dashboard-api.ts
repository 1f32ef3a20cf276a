import { useQuery } from "@tanstack/react-query";
// Types only: zod stays out of this screen's JS.
import type { DashboardStats } from "@contract/dashboard";
import { apiGet } from "@web/lib/api-client";

export const DASHBOARD_STATS_PATH = "/api/admin/dashboard/stats";

/** Query keys of the dashboard area (mutations elsewhere that change its figures invalidate `all`). */
export const dashboardKeys = {
  all: ["dashboard"] as const,
  stats: () => [...dashboardKeys.all, "stats"] as const,
};

export function fetchDashboardStats(signal?: AbortSignal): Promise<DashboardStats> {
  return apiGet<DashboardStats>(DASHBOARD_STATS_PATH, { signal });
}

/** The dashboard's figures; `enabled` is false during the spec's 100 ms start delay. */
export function useDashboardStats(enabled: boolean) {
  return useQuery({ queryKey: dashboardKeys.stats(), queryFn: ({ signal }) => fetchDashboardStats(signal), enabled });
}
