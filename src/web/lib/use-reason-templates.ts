import { useQuery } from "@tanstack/react-query";
import { getSettingsEndpoint, reasonTemplatesOf } from "@contract/settings";
import { callApi } from "./api-client";
import { queryKeys } from "./query-keys";

/**
 * The reason templates an operator picks from (Settings → Moderation: one per line), for decisions
 * on artists or on listings. Read from the settings answer the Settings screen shares; none while
 * it loads or when it fails (the operator writes the reason).
 */
export function useReasonTemplates(kind: "artist" | "listing"): string[] {
  const settings = useQuery({
    queryKey: queryKeys.settings.values(),
    queryFn: ({ signal }) => callApi(getSettingsEndpoint, {}, { signal }),
    staleTime: 60_000,
  });
  const value = settings.data?.[kind === "artist" ? "artist_reason_templates" : "listing_reason_templates"]?.value ?? "";
  return reasonTemplatesOf(value);
}
