import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { RouteErrorScreen } from "./app/route-error";
import { RoutePending } from "./app/route-pending";

/**
 * The one URL -> screen map (docs/product.md §2.3). Every screen is a lazy route so the first screen's JS stays
 * near the framework floor; each feature's chunk (and its charts) loads only when visited.
 */
const page =
  (load: () => Promise<{ default: ComponentType }>): RouteObject["lazy"] =>
  async () => ({ Component: (await load()).default });

export const routes: RouteObject[] = [
  {
    path: "/",
    // The layout (with its menu primitives) is lazy too: the first screen a visitor sees is the beta gate.
    lazy: async () => ({ Component: (await import("./app/layout")).Layout }),
    HydrateFallback: RoutePending,
    // Failures of the layout itself replace the whole page.
    errorElement: <RouteErrorScreen />,
    children: [
      {
        // Screen failures and unknown URLs keep the top bar and navigation around the error.
        errorElement: <RouteErrorScreen />,
        children: [
          { index: true, lazy: page(() => import("./features/dashboard/dashboard-page")) },
          { path: "vendors", lazy: page(() => import("./features/vendors/vendors-page")) },
          { path: "vendors/:vendorId", lazy: page(() => import("./features/vendors/vendor-detail-page")) },
          { path: "products", lazy: page(() => import("./features/products/products-page")) },
          { path: "financials", lazy: page(() => import("./features/financials/financials-page")) },
          { path: "analytics", lazy: page(() => import("./features/analytics/analytics-page")) },
          { path: "invite-codes", lazy: page(() => import("./features/invite-codes/invite-codes-page")) },
          { path: "communications", lazy: page(() => import("./features/communications/communications-page")) },
          { path: "communications/:announcementId", lazy: page(() => import("./features/communications/announcement-page")) },
          { path: "admin-users", lazy: page(() => import("./features/admin-users/admin-users-page")) },
          { path: "errors", lazy: page(() => import("./features/error-logs/errors-page")) },
          { path: "settings", lazy: page(() => import("./features/settings/settings-page")) },
          { path: "system-debug", lazy: page(() => import("./features/system-debug/system-debug-page")) },
          // Hidden: not in the navigation (docs/product.md §2.3).
          { path: "test-error", lazy: page(() => import("./features/test-error/test-error-page")) },
          {
            path: "*",
            // Never rendered (the loader always throws); present so the router does not warn about an empty leaf.
            Component: () => null,
            loader: () => {
              throw new Response("Not Found", { status: 404, statusText: "Not Found" });
            },
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
