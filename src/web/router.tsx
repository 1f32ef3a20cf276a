import { Component, Suspense, createElement, lazy, type ComponentType, type ReactNode } from "react";
import { Outlet, matchRoutes, useLocation, useRoutes, type RouteObject } from "react-router";
import { NOT_FOUND, RouteErrorScreen } from "./app/route-error";
import { FullScreenSpinner } from "./app/gate-screens";

type Load = () => Promise<{ default: ComponentType }>;

/**
 * The one URL -> screen map (docs/product.md §2.3). Every screen is lazy so the first screen's JS stays
 * near the framework floor; each feature's chunk (and its charts) loads only when visited. A route's
 * `handle` is its screen's loader, so the screen of the URL the app opens on loads beside the layout
 * (preloadRoute) instead of after it.
 */
const SCREENS: Array<[path: string | null, load: Load]> = [
  [null, () => import("./features/dashboard/dashboard-page")],
  ["vendors", () => import("./features/vendors/vendors-page")],
  ["vendors/:vendorId", () => import("./features/vendors/vendor-detail-page")],
  ["products", () => import("./features/products/products-page")],
  ["orders", () => import("./features/orders/orders-page")],
  ["financials", () => import("./features/financials/financials-page")],
  ["analytics", () => import("./features/analytics/analytics-page")],
  ["invite-codes", () => import("./features/invite-codes/invite-codes-page")],
  ["communications", () => import("./features/communications/communications-page")],
  ["communications/:announcementId", () => import("./features/communications/announcement-page")],
  ["admin-users", () => import("./features/admin-users/admin-users-page")],
  ["integrations", () => import("./features/integrations/integrations-page")],
  ["errors", () => import("./features/error-logs/error-logs-page")],
  ["settings", () => import("./features/settings/settings-page")],
  ["system-debug", () => import("./features/system-debug/system-debug-page")],
  // Hidden: not in the navigation (docs/product.md §2.3).
  ["test-error", () => import("./features/test-error/test-error-page")],
];

// The layout (with its menu primitives) is lazy too: the first screen a visitor sees is the beta gate.
const loadLayout = () => import("./app/layout").then((m) => ({ default: m.Layout }));
const Layout = lazy(loadLayout);

export const routes: RouteObject[] = [
  {
    path: "/",
    // Failures of the layout itself replace the whole page.
    element: (
      <RouteErrorBoundary>
        <Suspense fallback={<FullScreenSpinner />}>
          <Layout />
        </Suspense>
      </RouteErrorBoundary>
    ),
    children: [
      {
        // Screen failures and unknown URLs keep the top bar and navigation around the error.
        element: (
          <RouteErrorBoundary>
            <Outlet />
          </RouteErrorBoundary>
        ),
        children: [
          ...SCREENS.map(([path, load]): RouteObject => {
            const element = createElement(lazy(load));
            return path === null ? { index: true, element, handle: load } : { path, element, handle: load };
          }),
          { path: "*", element: <RouteErrorScreen error={NOT_FOUND} /> },
        ],
      },
    ],
  },
];

/** The routed screens of the URL (inside AppRouter, app/navigation.tsx). */
export function AppRoutes() {
  return useRoutes(routes);
}

/** Starts loading the layout and the screen of `pathname` at once (the app's start). */
export function preloadRoute(pathname: string): void {
  void loadLayout();
  for (const match of matchRoutes(routes, pathname) ?? []) void (match.route.handle as Load | undefined)?.();
}

/** A route's error boundary; it starts over when the URL's path changes. */
function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <ErrorBoundary path={useLocation().pathname}>{children}</ErrorBoundary>;
}

class ErrorBoundary extends Component<{ path: string; children: ReactNode }, { error: unknown; path: string }> {
  override state = { error: null as unknown, path: this.props.path };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(props: { path: string }, state: { error: unknown; path: string }) {
    return props.path === state.path ? null : { error: null, path: props.path };
  }
  override render() {
    return this.state.error === null ? this.props.children : <RouteErrorScreen error={this.state.error} />;
  }
}
