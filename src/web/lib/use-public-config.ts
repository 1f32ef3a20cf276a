import { useQuery } from "@tanstack/react-query";
import { publicConfigEndpoint } from "@contract/public";
import { callApi } from "./api-client";

/** The key of the public config (the "public" area, like every key of a public endpoint). */
export const publicConfigQueryKey = ["public", "config"] as const;

/** Storefront URL and auth-provider name: public, needed before sign-in, and stable for the page's life. */
export function usePublicConfig() {
  return useQuery({
    queryKey: publicConfigQueryKey,
    queryFn: ({ signal }) => callApi(publicConfigEndpoint, {}, { signal }),
    staleTime: Infinity,
  });
}

/** Joins the storefront base URL and a path without doubling or dropping the slash. */
export function storefrontLink(storefrontUrl: string, path = ""): string {
  return `${storefrontUrl.replace(/\/+$/, "")}${path}`;
}
