import { StrictMode, Suspense, lazy } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { queryClient } from "./lib/query-client";
import { BetaGate, loadBetaPasswordForm } from "./app/beta-gate";
import { AuthSwitch } from "./app/auth-switch";
import { loadSignInScreen } from "./app/auth-gate";
import { hasValidBetaMarker } from "./lib/beta-marker";
import { getSessionToken } from "./lib/session";
import { prefetchStoredSession } from "./app/auth";
import { prefetchPublicConfig } from "./lib/use-public-config";
import { followThemeChanges } from "./app/theme";
import { Spinner } from "./components/ui/spinner";
import { ToasterHost } from "./components/ui/toaster-host";
import "./styles.css";

// The first screen a visitor sees is a gate (beta password, sign-in), which needs no router. The
// router and its screens are a separate chunk whose download starts right now, at boot, in
// parallel with the gates' own work, so a returning admin waits for no extra round trip.
// An invitation link opens the accept page instead: outside the gates (the link stands in for the
// beta password) and outside the layout; its own small chunk (docs/product.md §14.3).
const acceptingInvitation = window.location.pathname === "/accept-invite";
const routedAppModule = acceptingInvitation ? null : import("./routed-app");
const RoutedApp = lazy(() => routedAppModule ?? import("./routed-app"));
const AcceptInvitePage = lazy(() => import("./features/accept-invite/accept-invite-page"));

// Which sign-in to show comes from the public config (auth-switch.tsx); it and a returning user's
// session check start now, side by side, instead of one after the other behind the beta gate.
if (!acceptingInvitation) {
  prefetchPublicConfig(queryClient);
  prefetchStoredSession(queryClient);
  // The gates' forms are chunks of their own that a returning admin never needs (issue 23); a
  // visitor who will see them gets them now, beside the checks above.
  if (!hasValidBetaMarker()) void loadBetaPasswordForm();
  if (getSessionToken() === null) void loadSignInScreen();
}

// public/theme-init.js applied the stored theme before the first paint; from here on it follows changes.
followThemeChanges();

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      {acceptingInvitation ? (
        <Suspense fallback={<Spinner className="py-24" label="Loading" />}>
          <AcceptInvitePage />
        </Suspense>
      ) : (
        <BetaGate>
          <AuthSwitch>
            <Suspense fallback={<Spinner className="py-24" label="Loading" />}>
              <RoutedApp />
            </Suspense>
          </AuthSwitch>
        </BetaGate>
      )}
      <ToasterHost />
    </QueryClientProvider>
  </StrictMode>,
);
