import { useMutation, useQuery } from "@tanstack/react-query";
import { dashboardAttentionEndpoint, dashboardStatsEndpoint } from "@contract/dashboard";
import { endFeaturedArtistEndpoint, getFeaturedArtistEndpoint } from "@contract/featured-artist";
import { callApi, mutationOf } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";

/** The dashboard's figures; `enabled` is false during the product's 100 ms start delay. */
export function useDashboardStats(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.dashboard.stats(), queryFn: ({ signal }) => callApi(dashboardStatsEndpoint, {}, { signal }), enabled });
}

/** What needs the operator now (docs/product.md §18.3). */
export function useAttention(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.dashboard.attention(), queryFn: ({ signal }) => callApi(dashboardAttentionEndpoint, {}, { signal }), enabled });
}

/** The featured artist now, the queue and the history (docs/product.md §18.1). */
export function useFeaturedArtist(enabled: boolean) {
  return useQuery({ queryKey: queryKeys["featured-artist"].current(), queryFn: ({ signal }) => callApi(getFeaturedArtistEndpoint, {}, { signal }), enabled });
}

export function useEndFeaturedArtist() {
  return useMutation({ ...mutationOf(endFeaturedArtistEndpoint), mutationFn: () => callApi(endFeaturedArtistEndpoint, {}) });
}
