import { Suspense, lazy, useState, type ReactNode } from "react";
import { Button, buttonVariants } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@web/components/ui/card";
import { useAuth, useSignOut } from "./auth";
import { CurrentUserContext } from "./current-user";
import { FullScreenSpinner } from "./gate-screens";
import { StoreLink } from "./store-link";
import { TwoStepRequired } from "./two-step-required";

export { LostBox, StoreLink } from "./store-link";

/**
 * The sign-in form is its own chunk: a returning admin never downloads it (issue 23). main.tsx starts
 * its download at boot when no session is stored, so a visitor waits for no extra round trip.
 */
export const loadSignInScreen = () => import("./sign-in-screen");
const SignInScreen = lazy(loadSignInScreen);

/**
 * Auth wrapper (docs/product.md §1.2): spinner while the session loads, the sign-in form when signed out,
 * 'Access Denied' for a signed-in user without panel access (no panel role), the two-step enrolment
 * when it is required and missing, otherwise the app. `panelAccess` comes from the server's one rule; the server enforces it again on every admin call.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const auth = useAuth();
  // Held from the moment enrolment starts until its dialog closes: turning it on refreshes who is
  // signed in, and the panel must not replace the recovery codes before the user has kept them.
  const [enrolling, setEnrolling] = useState(false);

  if (auth.status === "loading") return <FullScreenSpinner label="Loading session" />;
  if (auth.status === "signed-out") {
    return (
      <Suspense fallback={<FullScreenSpinner label="Loading session" />}>
        <SignInScreen />
      </Suspense>
    );
  }
  // Every panel role opens the panel; each sees the actions its role may not take disabled.
  if (!auth.user.panelAccess) return <AccessDenied />;
  // Two-step sign-in is required and this session has none yet: the enrolment comes before the panel.
  if (auth.user.twoStepEnrolmentDue || enrolling) return <TwoStepRequired onStart={() => setEnrolling(true)} onDone={() => setEnrolling(false)} />;
  return <CurrentUserContext.Provider value={auth.user}>{children}</CurrentUserContext.Provider>;
}

/** A signed-in user without panel access, under any provider; 'Sign out' uses the provider's sign-out (auth.tsx). */
export function AccessDenied() {
  const signOut = useSignOut();
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 p-4">
      <Card className="w-full max-w-md text-center">
        <CardHeader>
          <h1 className="text-xl font-semibold leading-none tracking-tight">Access Denied</h1>
          <CardDescription>You don&apos;t have permission to access the admin panel.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col items-center gap-2">
          <StoreLink className={buttonVariants()}>Go to Store</StoreLink>
          {/* Lets someone signed in with the wrong account switch to an admin one. */}
          <Button variant="ghost" size="sm" onClick={() => void signOut()}>
            Sign out
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
