import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { type SettingKeyName, type SettingsUpdateRequest, getSettingsEndpoint, settingHistoryEndpoint, updateSettingsEndpoint } from "@contract/settings";
import { callApi, mutationOf } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";

export const SETTINGS_HISTORY_PAGE = 10;

export function useSettings(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.settings.values(),
    queryFn: ({ signal }) => callApi(getSettingsEndpoint, {}, { signal }),
    enabled,
    // The form is seeded from this answer: a background refetch must not silently change it.
    staleTime: Infinity,
  });
}

/**
 * Sends only the changed keys (docs/product.md §7.1). The definition's areas are refreshed after: the values and
 * every history, and the dashboard and analytics, which show the fee percentage in force.
 */
export function useSaveSettings() {
  return useMutation({
    ...mutationOf(updateSettingsEndpoint),
    mutationFn: (changes: SettingsUpdateRequest) => callApi(updateSettingsEndpoint, { body: changes }),
  });
}

/** A setting's change history, newest first, one page at a time (loaded when expanded). */
export function useSettingHistory(key: SettingKeyName, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: queryKeys.settings.history(key),
    queryFn: ({ signal, pageParam }) => callApi(settingHistoryEndpoint, { query: { key, limit: SETTINGS_HISTORY_PAGE, cursor: pageParam || undefined } }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}
