import { useQuery } from "@tanstack/react-query";
// Types only: zod stays out of this screen's JS.
import type { DebugResponse } from "@contract/debug";
import { apiGet, errorStatus } from "@web/lib/api-client";

export const DEBUG_ADMIN_PATH = "/api/debug/admin";

/** Query keys of the System Debug area. */
export const systemDebugKeys = {
  all: ["system-debug"] as const,
  admin: () => [...systemDebugKeys.all, "admin"] as const,
};

export function useDebugAdmin(enabled: boolean) {
  return useQuery({
    queryKey: systemDebugKeys.admin(),
    queryFn: ({ signal }) => apiGet<DebugResponse>(DEBUG_ADMIN_PATH, { signal }),
    enabled,
    // A health page shows what is true now: no reuse of an older answer when reopened.
    staleTime: 0,
    retry: false,
  });
}

/** Spec §8: 'API returned {status}' for an answer from the API, otherwise the error's own message. */
export function debugErrorText(error: unknown): string {
  const status = errorStatus(error);
  if (status !== undefined) return `API returned ${status}`;
  return error instanceof Error ? error.message : String(error);
}
