import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { publicConfigEndpoint } from "@contract/public";
import { callApi } from "./api-client";
import { queryKeys } from "./query-keys";

/** Storefront URL and auth provider (which sign-in to show): public, needed before sign-in, stable for the page's life. */
const publicConfigQuery = queryOptions({
  queryKey: queryKeys.public.config(),
  queryFn: ({ signal }) => callApi(publicConfigEndpoint, {}, { signal }),
  staleTime: Infinity,
});

export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}

/** Asked at boot (main.tsx), in parallel with the gates' own work: the sign-in screen depends on it. */
export function prefetchPublicConfig(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(publicConfigQuery);
}

/** Joins the storefront base URL and a path without doubling or dropping the slash. */
export function storefrontLink(storefrontUrl: string, path = ""): string {
  return `${storefrontUrl.replace(/\/+$/, "")}${path}`;
}
