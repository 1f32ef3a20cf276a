import { ClerkFailed, ClerkProvider, SignIn, useAuth as useClerkAuth, useClerk } from "@clerk/react";
import { Clerk } from "@clerk/clerk-js/no-rhc";
import { ui } from "@clerk/ui/no-rhc";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useLayoutEffect, useState } from "react";
import { meEndpoint } from "@contract/auth";
import { callApi, errorStatus } from "@web/lib/api-client";
import { clerkTokenSource } from "@web/lib/clerk-token-source";
import { setTokenSource } from "@web/lib/session";
import { queryKeys } from "@web/lib/query-keys";
import { AccessDenied, LostBox } from "./auth-gate";
import { ProviderSignOutContext } from "./auth";
import { CurrentUserContext } from "./current-user";
import { FullScreenSpinner, SignInProblem } from "./gate-screens";

/**
 * Sign-in through Clerk (AUTH_PROVIDER=clerk; docs/product.md §1.2), the marketplace's own accounts.
 * Loaded lazily by auth-switch.tsx, only under Clerk.
 *
 * Clerk's JS (`@clerk/clerk-js`) and its UI (`@clerk/ui`) come from npm and are bundled into this
 * chunk, passed to the provider, so nothing is loaded from Clerk's servers and the CSP keeps
 * `script-src 'self'`. Both are their "no remotely hosted code" builds. The browser talks only to
 * the instance's Frontend API (the host in the publishable key), which the CSP allows for fetches
 * and images. Telemetry is off.
 */

/** The product's two titles on every step of the form (the start and the password step). */
const TITLES = { title: "HKI Global Admin", subtitle: "Administrator access required" };
const localization = { signIn: { start: TITLES, password: TITLES } };

/**
 * No social sign-in, no divider, no sign-up link and no footer. Hiding them is presentation only:
 * sign-up and social connections must be turned off in Clerk's dashboard too (README "Using Clerk").
 */
const hidden = { display: "none" } as const;
const appearance = {
  elements: {
    socialButtonsRoot: hidden,
    socialButtons: hidden,
    dividerRow: hidden,
    footerAction: hidden,
    footer: hidden,
  },
};

/** Clerk's navigations (after sign-in, after sign-out) stay in the page: no reload, no lost state. */
function historyNavigate(method: "pushState" | "replaceState") {
  return (to: string) => {
    const url = new URL(to, window.location.href);
    if (url.origin !== window.location.origin) {
      window.location.assign(url.href);
      return;
    }
    window.history[method](null, "", `${url.pathname}${url.search}${url.hash}`);
  };
}
const routerPush = historyNavigate("pushState");
const routerReplace = historyNavigate("replaceState");

export default function ClerkAuthGate({ publishableKey, children }: { publishableKey: string; children: ReactNode }) {
  return (
    <ClerkProvider
      publishableKey={publishableKey}
      Clerk={Clerk}
      ui={ui}
      telemetry={false}
      localization={localization}
      appearance={appearance}
      afterSignOutUrl="/"
      routerPush={routerPush}
      routerReplace={routerReplace}
    >
      <ClerkFailed>
        <SignInProblem onRetry={() => window.location.reload()} retryLabel="Try again" />
      </ClerkFailed>
      <ClerkSessionGate>{children}</ClerkSessionGate>
    </ClerkProvider>
  );
}

/**
 * The auth wrapper under Clerk, as the built-in one (auth-gate.tsx) behaves: spinner while Clerk
 * loads and while the server is asked who this is; Clerk's form when signed out; 'Access Denied'
 * for a user without panel access (the server decides, from the same one rule); else the app.
 */
function ClerkSessionGate({ children }: { children: ReactNode }) {
  const clerk = useClerk();
  const { isLoaded, isSignedIn, sessionId } = useClerkAuth();
  const queryClient = useQueryClient();

  // Before any child's first call (layout effects run before the children's query subscriptions).
  useLayoutEffect(() => setTokenSource(clerkTokenSource(clerk)), [clerk]);

  // Sign-out goes through Clerk (the session ends at Clerk) and returns to '/'.
  const signOut = useCallback(async () => {
    await clerk.signOut({ redirectUrl: "/" });
    queryClient.clear();
  }, [clerk, queryClient]);

  const me = useQuery({
    queryKey: queryKeys.auth.me(sessionId ?? null),
    enabled: isLoaded && isSignedIn === true && !!sessionId,
    queryFn: ({ signal }) => callApi(meEndpoint, {}, { signal }),
    staleTime: 5 * 60_000,
  });

  let content: ReactNode;
  if (!isLoaded) content = clerk.status === "error" ? null : <FullScreenSpinner label="Loading session" />;
  else if (!isSignedIn) content = <ClerkSignInScreen />;
  else if (me.data) content = me.data.user.panelAccess ? <CurrentUserContext.Provider value={me.data.user}>{children}</CurrentUserContext.Provider> : <AccessDenied />;
  // Refused (401): this Clerk session does not open the panel, so offer to switch accounts; the
  // server unreachable (after the query client's retries): offer to ask again.
  else if (me.isError && errorStatus(me.error) === 401) content = <SignInProblem onRetry={() => void signOut()} retryLabel="Sign out" />;
  else if (me.isError) content = <SignInProblem onRetry={() => void me.refetch()} retryLabel="Try again" />;
  else content = <FullScreenSpinner label="Loading session" />;

  return <ProviderSignOutContext.Provider value={signOut}>{content}</ProviderSignOutContext.Provider>;
}

/** Clerk's sign-in form with the product's titles, above the 'Are you lost?' box; back on the same page after. */
function ClerkSignInScreen() {
  const [returnTo] = useState(() => `${window.location.pathname}${window.location.search}`);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-gray-50 p-4">
      <SignIn routing="hash" forceRedirectUrl={returnTo} />
      <LostBox />
    </main>
  );
}
