import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
// Types only: zod stays out of this screen's JS.
import type { SettingHistoryResponse, SettingKeyName, SettingsResponse, SettingsUpdateRequest } from "@contract/settings";
import { apiGet, apiPut } from "@web/lib/api-client";
import { dashboardKeys } from "@web/features/dashboard/dashboard-api";

export const SETTINGS_PATH = "/api/admin/settings";
export const SETTINGS_HISTORY_PAGE = 10;

/** Query keys of the settings area: saving invalidates `all` (the values and every history). */
export const settingsKeys = {
  all: ["settings"] as const,
  values: () => [...settingsKeys.all, "values"] as const,
  history: (key: SettingKeyName) => [...settingsKeys.all, "history", key] as const,
};

export function useSettings(enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.values(),
    queryFn: ({ signal }) => apiGet<SettingsResponse>(SETTINGS_PATH, { signal }),
    enabled,
    // The form is seeded from this answer: a background refetch must not silently change it.
    staleTime: Infinity,
  });
}

/** Sends only the changed keys (spec §4); the screen then reloads the values. */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: SettingsUpdateRequest) => apiPut<SettingsResponse>(SETTINGS_PATH, changes),
    onSuccess: async () => {
      // The dashboard shows the fee percentage in force, so it is refreshed too.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
        queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
      ]);
    },
  });
}

/** A setting's change history, newest first, one page at a time (loaded when expanded). */
export function useSettingHistory(key: SettingKeyName, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: settingsKeys.history(key),
    queryFn: ({ signal, pageParam }) => {
      const params = new URLSearchParams({ key, limit: String(SETTINGS_HISTORY_PAGE) });
      if (pageParam) params.set("cursor", pageParam);
      return apiGet<SettingHistoryResponse>(`${SETTINGS_PATH}/history?${params.toString()}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}
