/**
 * Every API area, each named once. An area's name is the `area` of the endpoints it defines and
 * what a mutation names in `invalidates` (src/contract/endpoint.ts), and the first element of
 * every query key the web keeps its answers under (src/web/lib/query-keys.ts), so a mutation
 * refreshes exactly the answers of the areas it names. It is also the name of the area's files:
 * its contract `src/contract/<area>.ts` (a large area adds `<area>-<part>.ts`) and its server
 * folder `src/server/features/<area>/` (from `<area>.routes.ts`). Routes and API paths may differ
 * where the product set them (docs/product.md §2.3, §10): `/errors` and `/api/admin/financial`.
 *
 * `screen`: the web folder that shows the area (src/web/features/<screen>/, its calls in
 * `<screen>-api.ts`): its own, the screen of the area it is a part of, or null where no screen of
 * its own reads it (the session and the gates live in src/web/app).
 *
 * scripts/area-names.test.ts holds the names and the files together.
 */
export const API_AREAS = {
  public: { screen: null },
  auth: { screen: null },
  vendors: { screen: "vendors" },
  dashboard: { screen: "dashboard" },
  /** The featured artist, its queue and history: a card of the dashboard (docs/product.md §18.1). */
  "featured-artist": { screen: "dashboard" },
  analytics: { screen: "analytics" },
  /** The Error Logs screen (route /errors, docs/product.md §5), reading what src/server/platform/error-recorder writes. */
  "error-logs": { screen: "error-logs" },
  settings: { screen: "settings" },
  "system-debug": { screen: "system-debug" },
  "api-docs": { screen: null },
  exports: { screen: null },
  "admin-users": { screen: "admin-users" },
  "audit-log": { screen: "admin-users" },
  financials: { screen: "financials" },
  communications: { screen: "communications" },
  products: { screen: "products" },
  /** Every storefront order line across artists (docs/product.md "Orders"). */
  orders: { screen: "orders" },
  integrations: { screen: "integrations" },
} as const satisfies Record<string, { screen: string | null }>;

/** The areas the web keeps answers under (the first element of every query key). */
export type ApiArea = keyof typeof API_AREAS;
