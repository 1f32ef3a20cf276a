import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { type MutationMeta, errorStatus } from "./api-client";
import { clearSessionToken, getSessionToken } from "./session";
import { queryKeys } from "./query-keys";

/**
 * A 401 from any screen's call means the session expired or was revoked elsewhere: drop the token
 * so the auth gate shows the sign-in form instead of a screen full of errors.
 */
function onApiError(error: unknown): void {
  if (errorStatus(error) === 401 && getSessionToken() !== null) clearSessionToken();
}

/** One QueryClient for the app; client errors (4xx) are not retried because retrying cannot fix them. */
export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: onApiError }),
    mutationCache: new MutationCache({
      onError: onApiError,
      // Each mutation names the areas its endpoint changes (mutationOf in api-client.ts); every
      // query key starts with its area, so exactly those answers are refetched.
      onSuccess: async (_data, _variables, _context, mutation) => {
        const areas = (mutation.meta as Partial<MutationMeta> | undefined)?.invalidates ?? [];
        await Promise.all(areas.map((area) => queryClient.invalidateQueries({ queryKey: queryKeys[area].all })));
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          const status = errorStatus(error);
          if (status !== undefined && status >= 400 && status < 500) return false;
          return failureCount < 2;
        },
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}

export const queryClient = createQueryClient();
