import { type QueryClient, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useSyncExternalStore } from "react";
import { type PublicUser, type SecondStepRequired, type SignInRequest, type SignedInUser, meEndpoint, signInEndpoint, signInSecondStepEndpoint, signOutEndpoint } from "@contract/auth";
import { callApi, errorStatus } from "@web/lib/api-client";
import { clearSessionToken, getSessionToken, setSessionToken, subscribeSession } from "@web/lib/session";
import { queryKeys } from "@web/lib/query-keys";

export function useSessionToken(): string | null {
  return useSyncExternalStore(subscribeSession, getSessionToken, () => null);
}

/** The "me" answer for the stored (built-in) token; a rejected token is forgotten so the sign-in form shows. */
function storedSessionQuery(token: string | null) {
  return queryOptions({
    queryKey: queryKeys.auth.me(token),
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
}

/**
 * Started at boot (main.tsx) beside the public config, so a returning admin's session check does not
 * wait for the config's answer first. Only with a stored token, so only after a built-in sign-in.
 */
export function prefetchStoredSession(queryClient: QueryClient): void {
  const token = getSessionToken();
  if (token !== null) void queryClient.prefetchQuery(storedSessionQuery(token));
}

export type AuthState = { status: "loading" } | { status: "signed-out" } | { status: "signed-in"; user: PublicUser };

/**
 * Who is signed in. While the token is being checked the state is "loading"; the gate treats it
 * as signed out (docs/product.md §1.2) by showing only a spinner. A rejected token is dropped.
 */
export function useAuth(): AuthState {
  const token = useSessionToken();
  const me = useQuery({ ...storedSessionQuery(token), enabled: token !== null });

  if (token === null) return { status: "signed-out" };
  if (me.data) return { status: "signed-in", user: me.data.user };
  if (me.isPending) return { status: "loading" };
  return { status: "signed-out" };
}

/**
 * Signs in and keeps the token; the "me" answer (with what the user may do: panel access, read-only
 * or not) follows at once, while the gate shows its spinner.
 */
export function useSignIn(): (credentials: SignInRequest) => Promise<SignInOutcome> {
  return useCallback(async (credentials: SignInRequest) => {
    const answer = await callApi(signInEndpoint, { body: credentials });
    // Two-step sign-in: no session until the second step (docs/product.md "Two-step sign-in").
    if ("secondStep" in answer) return { secondStep: answer.secondStep };
    setSessionToken(answer.token);
    return { user: answer.user };
  }, []);
}

/** What the password step led to: signed in, or the second step to take with its challenge. */
export type SignInOutcome = { user: SignedInUser } | SecondStepRequired;

/** The second step: a code of the authenticator app, or a recovery code; keeps the token it answers. */
export function useSecondStep(): (input: { challenge: string } & ({ code: string } | { recoveryCode: string })) => Promise<SignedInUser> {
  return useCallback(async (input) => {
    const answer = await callApi(signInSecondStepEndpoint, { body: input });
    setSessionToken(answer.token);
    return answer.user;
  }, []);
}

/**
 * A hosted provider's own sign-out (Clerk's), provided by its module around the app; without it
 * (null) signing out is the built-in one below.
 */
export const ProviderSignOutContext = createContext<(() => Promise<void>) | null>(null);

/**
 * Signs out. Built-in: revokes the session on the server, then forgets it locally even if the call
 * failed. Under a hosted provider: that provider's sign-out (ProviderSignOutContext).
 */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const providerSignOut = useContext(ProviderSignOutContext);
  return useCallback(async () => {
    if (providerSignOut) {
      await providerSignOut();
      return;
    }
    try {
      await callApi(signOutEndpoint, {});
    } catch {
      // The token is dropped locally anyway; an unreachable server must not keep the user signed in.
    }
    clearSessionToken();
    queryClient.clear();
  }, [queryClient, providerSignOut]);
}
