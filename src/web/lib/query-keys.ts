import type { AnalyticsPeriod, SalesGrouping } from "@contract/analytics";
import type { ApiArea } from "@contract/areas";
import type { AnnouncementRequest, RecipientStatus } from "@contract/communications";
import type { AccountStatusName, FinancialPeriod, PayoutStatusName } from "@contract/financials";
import type { OrderSort } from "@contract/orders";
import type { ProductSort } from "@contract/products";
import type { SettingKeyName } from "@contract/settings";

/** Makes the keys of one area: each is the area's name followed by the parts given. */
type KeyMaker<A extends ApiArea> = <const P extends readonly unknown[]>(...parts: P) => readonly [A, ...P];

/** The keys of one area from its name: `all` (the name alone: what a mutation naming the area refreshes) and those `keys` builds. */
function area<A extends ApiArea, K extends Record<string, (...args: never[]) => readonly [A, ...unknown[]]>>(name: A, keys: (key: KeyMaker<A>) => K): { all: readonly [A] } & K {
  const key = ((...parts: readonly unknown[]) => [name, ...parts]) as KeyMaker<A>;
  return { all: [name] as const, ...keys(key) };
}

/**
 * Every query key of the web, by area (src/contract/areas.ts): `queryKeys.<area>.<answer>(…)`.
 * Each key starts with its area, which is how a mutation's `invalidates` reaches exactly the
 * answers of the areas it names (src/web/lib/query-client.ts). A screen's own parameters (its
 * filters, its page) go into the key as they are (`object`), so each combination is kept apart.
 */
export const queryKeys = {
  public: area("public", (key) => ({ config: () => key("config") })),
  auth: area("auth", (key) => ({ me: (token: string | null) => key("me", token), twoStep: () => key("two-step"), passkeys: () => key("passkeys") })),
  vendors: area("vendors", (key) => ({
    /** Every page of the list, whatever its parameters (a status change rewrites them in place). */
    lists: () => key("list"),
    list: (params: object) => key("list", params),
    /** A vendor's detail; its tabs' keys start with it, so removing it removes them. */
    detail: (id: string) => key("detail", id),
    products: (id: string, page: number) => key("detail", id, "products", page),
    sales: (id: string, page: number) => key("detail", id, "sales", page),
    palette: (search: string) => key("palette", search),
    announcementPicker: (search: string) => key("announcement-picker", search),
    /** Artists matching a search, for the Orders screen's artist filter. */
    orderArtists: (search: string) => key("order-artists", search),
    /** The Applications queue's pages (docs/product.md §20.2). */
    applications: (cursor: string | null) => key("applications", cursor),
  })),
  dashboard: area("dashboard", (key) => ({
    stats: () => key("stats"),
    attention: () => key("attention"),
  })),
  "featured-artist": area("featured-artist", (key) => ({ current: () => key("current") })),
  analytics: area("analytics", (key) => ({
    period: (days: AnalyticsPeriod) => key(days),
    sales: (days: AnalyticsPeriod, groupBy: SalesGrouping) => key("sales", days, groupBy),
    top: (list: "products" | "vendors", days: AnalyticsPeriod) => key("top", list, days),
  })),
  "error-logs": area("error-logs", (key) => ({ list: (params: object) => key("list", params) })),
  settings: area("settings", (key) => ({
    values: () => key("values"),
    history: (setting: SettingKeyName) => key("history", setting),
  })),
  "system-debug": area("system-debug", (key) => ({ admin: () => key("admin") })),
  "api-docs": area("api-docs", () => ({})),
  exports: area("exports", () => ({})),
  "admin-users": area("admin-users", (key) => ({
    list: (params: object) => key("list", params),
    invitations: () => key("invitations"),
    sessions: (id: string) => key("sessions", id),
  })),
  "audit-log": area("audit-log", (key) => ({ page: (filters: object, cursor: string | null) => key("page", filters, cursor) })),
  financials: area("financials", (key) => ({
    overview: (period: FinancialPeriod) => key("overview", period),
    balances: (status: AccountStatusName | "all", cursor: string | null) => key("balances", status, cursor),
    payouts: (status: PayoutStatusName | "all", cursor: string | null) => key("payouts", status, cursor),
    latestRun: () => key("runs", "latest"),
    /** A vendor's payout account, money and last payouts: kept here because payout runs change them. */
    vendor: (id: string) => key("vendor", id),
    /** An artist's statement page: payouts, refunds and disputes change it. */
    statement: (id: string, cursor: string | null) => key("statement", id, cursor),
  })),
  communications: area("communications", (key) => ({
    history: (cursor: string | null) => key("history", cursor),
    one: (id: string) => key("announcement", id),
    recipients: (id: string, status: RecipientStatus | "all", cursor: string | null) => key("recipients", id, status, cursor),
    preview: (body: AnnouncementRequest | null) => key("preview", body),
  })),
  products: area("products", (key) => ({
    list: (filters: object, sort: ProductSort, cursor: string | null) => key("list", filters, sort, cursor),
    summary: () => key("summary"),
    detail: (id: string) => key("detail", id),
    palette: (search: string) => key("palette", search),
    /** The Review queue's pages (docs/product.md §20.4). */
    review: (cursor: string | null) => key("review", cursor),
  })),
  orders: area("orders", (key) => ({
    list: (filters: object, sort: OrderSort, cursor: string | null) => key("list", filters, sort, cursor),
    detail: (id: string) => key("detail", id),
  })),
  integrations: area("integrations", (key) => ({
    apiKeys: () => key("api-keys"),
    /** A page of the incoming events, with its filters (source, outcome). */
    incoming: (filters: object, cursor: string | null) => key("incoming", filters, cursor),
    /** The webhook endpoints, and one page of an endpoint's deliveries by status ("all": any). */
    webhooks: () => key("webhooks"),
    webhookDeliveries: (endpointId: string, status: string, cursor: string | null) => key("webhook-deliveries", endpointId, status, cursor),
  })),
} satisfies { [A in ApiArea]: { all: readonly [A] } };
