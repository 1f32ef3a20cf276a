import { useQuery } from "@tanstack/react-query";
// Type only, to keep zod out of the first screen's JS.
import type { PublicConfig } from "@contract/auth";
import { apiGet } from "./api-client";

export const publicConfigQueryKey = ["public-config"] as const;

/** Storefront URL and auth-provider name: public, needed before sign-in, and stable for the page's life. */
export function usePublicConfig() {
  return useQuery<PublicConfig>({
    queryKey: publicConfigQueryKey,
    queryFn: ({ signal }) => apiGet<PublicConfig>("/api/config", { signal }),
    staleTime: Infinity,
  });
}

/** Joins the storefront base URL and a path without doubling or dropping the slash. */
export function storefrontLink(storefrontUrl: string, path = ""): string {
  return `${storefrontUrl.replace(/\/+$/, "")}${path}`;
}
