import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { errorStatus } from "./api-client";
import { clearSessionToken, getSessionToken } from "./session";

/**
 * A 401 from any screen's call means the session expired or was revoked elsewhere: drop the token
 * so the auth gate shows the sign-in form instead of a screen full of errors.
 */
function onApiError(error: unknown): void {
  if (errorStatus(error) === 401 && getSessionToken() !== null) clearSessionToken();
}

/** One QueryClient for the app; client errors (4xx) are not retried because retrying cannot fix them. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onApiError }),
    mutationCache: new MutationCache({ onError: onApiError }),
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
}

export const queryClient = createQueryClient();
