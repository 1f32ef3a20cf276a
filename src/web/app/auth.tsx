import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { type PublicUser, type SignInRequest, type SignedInUser, meEndpoint, signInEndpoint, signOutEndpoint } from "@contract/auth";
import { callApi, errorStatus } from "@web/lib/api-client";
import { clearSessionToken, getSessionToken, setSessionToken, subscribeSession } from "@web/lib/session";

/** Query-key factory for the session (one per area: docs/product.md §2.5). */
export const authKeys = {
  all: ["auth"] as const,
  me: (token: string | null) => [...authKeys.all, "me", token] as const,
};

export function useSessionToken(): string | null {
  return useSyncExternalStore(subscribeSession, getSessionToken, () => null);
}

export type AuthState =
  | { status: "loading" }
  | { status: "signed-out" }
  | { status: "signed-in"; user: PublicUser };

/**
 * Who is signed in. While the token is being checked the state is "loading"; the gate treats it
 * as signed out (docs/product.md §1.2) by showing only a spinner. A rejected token is dropped.
 */
export function useAuth(): AuthState {
  const token = useSessionToken();
  const me = useQuery({
    queryKey: authKeys.me(token),
    enabled: token !== null,
    queryFn: async ({ signal }) => {
      try {
        return await callApi(meEndpoint, {}, { signal });
      } catch (error) {
        // An expired or revoked token: forget it so the sign-in form shows.
        if (errorStatus(error) === 401) clearSessionToken();
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });

  if (token === null) return { status: "signed-out" };
  if (me.data) return { status: "signed-in", user: me.data.user };
  if (me.isPending) return { status: "loading" };
  return { status: "signed-out" };
}

/**
 * Signs in and keeps the token; the "me" answer (with what the user may do: panel access, read-only
 * or not) follows at once, while the gate shows its spinner.
 */
export function useSignIn(): (credentials: SignInRequest) => Promise<SignedInUser> {
  return useCallback(async (credentials: SignInRequest) => {
    const answer = await callApi(signInEndpoint, { body: credentials });
    setSessionToken(answer.token);
    return answer.user;
  }, []);
}

/** Revokes the session on the server, then forgets it locally even if the call failed. */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    try {
      await callApi(signOutEndpoint, {});
    } catch {
      // The token is dropped locally anyway; an unreachable server must not keep the user signed in.
    }
    clearSessionToken();
    queryClient.clear();
  }, [queryClient]);
}
