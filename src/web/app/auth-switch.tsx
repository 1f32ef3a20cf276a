import { Suspense, lazy, type ReactNode } from "react";
import { usePublicConfig } from "@web/lib/use-public-config";
import { AuthGate } from "./auth-gate";
import { FullScreenSpinner, SignInProblem } from "./gate-screens";

/**
 * Clerk's sign-in (its JS, its UI and our screen around them) is a chunk of its own, downloaded
 * only when the server says AUTH_PROVIDER=clerk: a deployment on the built-in provider never loads
 * a byte of it (scripts/check-web-budget.ts proves no local-mode chunk holds a Clerk module).
 */
const ClerkAuthGate = lazy(() => import("./clerk-auth-gate"));

/**
 * Picks the sign-in the server configured (docs/product.md §1.2), from the public config the web
 * reads at boot: the built-in auth gate, or Clerk's. Until the config answers nothing of the app
 * shows (as with a pending session check); if it cannot be read, the screen says so and offers a
 * retry.
 */
export function AuthSwitch({ children }: { children: ReactNode }) {
  const config = usePublicConfig();
  if (config.data) {
    if (config.data.authProvider === "clerk" && config.data.clerkPublishableKey) {
      return (
        <Suspense fallback={<FullScreenSpinner label="Loading sign-in" />}>
          <ClerkAuthGate publishableKey={config.data.clerkPublishableKey}>{children}</ClerkAuthGate>
        </Suspense>
      );
    }
    return <AuthGate>{children}</AuthGate>;
  }
  if (config.isError) return <SignInProblem onRetry={() => void config.refetch()} retryLabel="Try again" />;
  return <FullScreenSpinner label="Loading session" />;
}
