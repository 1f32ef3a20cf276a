import { useQuery } from "@tanstack/react-query";
import { debugAdminEndpoint } from "@contract/system-debug";
import { callApi, errorStatus } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";

export function useDebugAdmin(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys["system-debug"].admin(),
    queryFn: ({ signal }) => callApi(debugAdminEndpoint, {}, { signal }),
    enabled,
    // A health page shows what is true now: no reuse of an older answer when reopened.
    staleTime: 0,
    retry: false,
  });
}

/** docs/product.md §8.1: 'API returned {status}' for an answer from the API, otherwise the error's own message. */
export function debugErrorText(error: unknown): string {
  const status = errorStatus(error);
  if (status !== undefined) return `API returned ${status}`;
  return error instanceof Error ? error.message : String(error);
}
