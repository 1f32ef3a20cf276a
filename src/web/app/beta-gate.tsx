import { Suspense, lazy, useEffect, useState, type ReactNode } from "react";
import { hasValidBetaMarker } from "@web/lib/beta-marker";
import { FullScreenSpinner } from "./gate-screens";

/**
 * The password form is its own chunk: an admin past the gate never downloads it (issue 23). main.tsx
 * starts its download at boot when there is no valid marker, so a visitor waits for no extra round trip.
 */
export const loadBetaPasswordForm = () => import("./beta-password-form");
const BetaPasswordForm = lazy(loadBetaPasswordForm);

type GateState = "loading" | "locked" | "unlocked";

/**
 * Private-beta gate around the whole app (docs/product.md §1.1). It starts locked and loading, then a
 * marker younger than 24 h unlocks it. The password is checked only by the server
 * (POST /api/beta/verify), so it never ships in the bundle.
 */
export function BetaGate({ children }: { children: ReactNode }) {
  const [state, setState] = useState<GateState>("loading");

  useEffect(() => {
    // hasValidBetaMarker also removes an expired or corrupt marker.
    setState(hasValidBetaMarker() ? "unlocked" : "locked");
  }, []);

  if (state === "unlocked") return <>{children}</>;
  const spinner = <FullScreenSpinner />;
  if (state === "loading") return spinner;
  return (
    <Suspense fallback={spinner}>
      <BetaPasswordForm onUnlock={() => setState("unlocked")} />
    </Suspense>
  );
}
