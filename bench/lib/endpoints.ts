import { sql } from "kysely";
import { parseDatabaseUrl } from "../../src/server/platform/config/config.ts";
import { openDatabase } from "../../src/server/platform/db/connect.ts";
import { encodeCursor, encodeKeyset } from "../../src/server/platform/http/keyset-cursor.ts";

export interface Endpoint {
  name: string;
  path: string;
  /** The single-request p95 budget, ms; null: measured and shown, no budget. */
  p95TargetMs: number | null;
  /**
   * Before each request (outside the timed span) a row is changed from another connection: the
   * catalogue's version counter. Then nothing the server keeps still matches (the answers and
   * sessions it keeps per data version, platform/db/read-cache.ts; a product search's counts per
   * catalogue version, features/products/search-counts.ts): the figure is what the request costs
   * the first time after any change.
   */
  afterAChange?: true;
}

export interface Subjects {
  vendorId: string;
  vendorName: string;
  vendorOrders: number;
  /** A store name as an admin would type it. */
  nameSearch: string;
  /** A frequent surname: matches about 1 vendor in 30 (the count grows with the data). */
  broadSearch: string;
  /** Cursor half-way through the active error logs. */
  deepCursor: string;
  deepRows: number;
  /** An audit-log actor of the generated rows (about a fifth of them: a busy filter). */
  auditActor: string;
  /** A vendor with audit rows (the Activity link of a vendor's detail). */
  auditTargetId: string;
  /** The busiest vendor's newest product: its detail, and its full name as a search (few matches). */
  productId: string;
  productName: string;
  /** The first word of that name: a broad product search (a share of every product). */
  productWord: string;
  /** Issue 23: cursors half-way through the vendors by revenue (largest first) and the active error logs oldest first. */
  vendorRevenueMidCursor?: string;
  oldestDeepCursor?: string;
  /** The Orders screen (docs/product.md §19): the busiest vendor's newest order, its buyer, a storefront order id, a week of the data set. */
  orderId: string;
  orderEmail: string;
  externalOrderId: string;
  orderWeek: { from: string; to: string };
  /** The announcement the benchmark sent to every artist (bench/lib/announcements.ts), and a cursor half-way through its recipients. */
  announcementId?: string;
  recipientsMidCursor?: string;
}

/**
 * Picks what the requests are about, straight from the database before the server starts: the
 * busiest vendor (largest sales and products tabs: the worst case) and a cursor in the middle of
 * the error logs (the deepest page a keyset walk can hit is no slower than this).
 */
export async function pickSubjects(databaseUrl: string): Promise<Subjects> {
  const database = openDatabase(parseDatabaseUrl(databaseUrl));
  try {
    const { db } = database;
    const busiest = await db
      .selectFrom("vendor_totals")
      .innerJoin("vendors", "vendors.id", "vendor_totals.vendor_id")
      .select(["vendors.id", "vendors.name", "vendor_totals.orders"])
      .orderBy("vendor_totals.orders", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();
    // error_log_counts (migration 003) holds the per-level totals: no count(*) over a million rows.
    const active = await db
      .selectFrom("error_log_counts")
      .select((eb) => eb.fn.sum<number>("entries").as("n"))
      .where("archived", "=", 0)
      .executeTakeFirstOrThrow();
    const activeCount = Number(active.n ?? 0);
    const deepRows = Math.floor(activeCount / 2);
    const row = await db
      .selectFrom("error_logs")
      .select(["created_at", "id"])
      .where("archived", "=", 0)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .offset(deepRows)
      .executeTakeFirstOrThrow();
    // The newest vendor-targeted audit row: through audit_log_target_type_idx, never a scan.
    const audited = await db.selectFrom("audit_log").select("target_id").where("target_type", "=", "vendor").orderBy("created_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst();
    // Through products_vendor_created_idx: the busiest vendor's newest product.
    const product = await db.selectFrom("products").select(["id", "name"]).where("vendor_id", "=", busiest.id).orderBy("created_at", "desc").limit(1).executeTakeFirstOrThrow();
    const surname = await sql<{ owner_name: string }>`select owner_name from vendors where id = ${busiest.id}`.execute(db);
    // Issue 23: positions half-way through the vendors by revenue and through the error logs oldest
    // first (an OFFSET here, before the server starts; the requests seek from them).
    const vendorCount = await db
      .selectFrom("vendor_totals")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const midRevenue = await db
      .selectFrom("vendor_totals")
      .select(["gross_cents", "vendor_id"])
      .orderBy("gross_cents", "desc")
      .orderBy("vendor_id", "desc")
      .limit(1)
      .offset(Math.floor(Number(vendorCount.n) / 2))
      .executeTakeFirst();
    const oldest = await db.selectFrom("error_logs").select(["created_at", "id"]).where("archived", "=", 0).orderBy("created_at").orderBy("id").limit(1).offset(deepRows).executeTakeFirst();
    const last = surname.rows[0]?.owner_name.split(" ").pop() ?? "Rossi";
    // Through orders_vendor_created_idx and orders_external_idx: never a scan.
    const order = await db.selectFrom("orders").select(["id", "customer_email", "created_at"]).where("vendor_id", "=", busiest.id).orderBy("created_at", "desc").limit(1).executeTakeFirstOrThrow();
    const external = await db.selectFrom("orders").select("external_order_id").where("external_order_id", "is not", null).limit(1).executeTakeFirst();
    const weekEnd = order.created_at.slice(0, 10);
    return {
      vendorId: busiest.id,
      vendorName: busiest.name,
      vendorOrders: Number(busiest.orders),
      nameSearch: busiest.name,
      broadSearch: last,
      deepCursor: encodeCursor({ createdAt: row.created_at, id: row.id }),
      deepRows,
      auditActor: "ops@hki.global",
      auditTargetId: audited?.target_id ?? busiest.id,
      productId: product.id,
      productName: product.name,
      productWord: product.name.split(" ")[0] ?? product.name,
      orderId: order.id,
      orderEmail: order.customer_email ?? "buyer@example.com",
      // Generated orders carry no storefront id: a miss through the same index then.
      externalOrderId: external?.external_order_id ?? "ord_not_in_the_data_set",
      orderWeek: { from: new Date(Date.parse(`${weekEnd}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10), to: weekEnd },
      ...(midRevenue ? { vendorRevenueMidCursor: encodeKeyset(["-revenue", Number(midRevenue.gross_cents), midRevenue.vendor_id]) } : {}),
      ...(oldest ? { oldestDeepCursor: encodeKeyset(["oldest", oldest.created_at, oldest.id]) } : {}),
    };
  } finally {
    await database.close();
  }
}

/** Every endpoint of the issue, with its p95 budget (settings and detail 2 ms, the rest 5 ms). */
export function endpointsFor(s: Subjects): Endpoint[] {
  const v = encodeURIComponent(s.vendorId);
  return [
    { name: "dashboard stats", path: "/api/admin/dashboard/stats", p95TargetMs: 5 },
    { name: "analytics 7 days", path: "/api/admin/analytics?days=7", p95TargetMs: 5 },
    { name: "analytics 30 days", path: "/api/admin/analytics?days=30", p95TargetMs: 5 },
    { name: "analytics 90 days", path: "/api/admin/analytics?days=90", p95TargetMs: 5 },
    // Issue 22 (docs/decisions/0013-top-lists.md): one walk of the period totals' top index; buckets
    // from the per-day platform rollup; attention counts from counters, rollup rows and capped index walks.
    { name: "top products 7 days", path: "/api/admin/analytics/top-products?limit=10&days=7", p95TargetMs: 5 },
    { name: "top products 90 days", path: "/api/admin/analytics/top-products?limit=10&days=90", p95TargetMs: 5 },
    { name: "top vendors 30 days", path: "/api/admin/analytics/top-vendors?limit=10&days=30", p95TargetMs: 5 },
    { name: "top vendors 90 days", path: "/api/admin/analytics/top-vendors?limit=10&days=90", p95TargetMs: 5 },
    { name: "sales 90 days by week", path: "/api/admin/analytics/sales?days=90&groupBy=week", p95TargetMs: 5 },
    { name: "sales 365 days by month", path: "/api/admin/analytics/sales?days=365&groupBy=month", p95TargetMs: 5 },
    { name: "sales 365 days by day", path: "/api/admin/analytics/sales?days=365&groupBy=day", p95TargetMs: 5 },
    { name: "dashboard attention", path: "/api/admin/dashboard/attention", p95TargetMs: 5 },
    { name: "featured artist", path: "/api/admin/featured-artist", p95TargetMs: 5 },
    { name: "vendor list page 1", path: "/api/admin/vendors?page=1&limit=20", p95TargetMs: 5 },
    { name: "vendor search (store name)", path: `/api/admin/vendors?page=1&limit=20&search=${encodeURIComponent(s.nameSearch)}`, p95TargetMs: 5 },
    { name: "vendor search (surname)", path: `/api/admin/vendors?page=1&limit=20&search=${encodeURIComponent(s.broadSearch)}`, p95TargetMs: 5 },
    // The Applications queue (docs/product.md §20.2): the generator leaves one applicant per hundred artists waiting.
    { name: "applications queue", path: "/api/admin/vendors/applications?limit=20", p95TargetMs: 5 },
    // The Review queue (docs/product.md §20.4): the generator leaves one listing in two thousand waiting.
    { name: "review queue", path: "/api/admin/products/review?limit=20", p95TargetMs: 5 },
    { name: "vendor detail", path: `/api/admin/vendors/${v}`, p95TargetMs: 2 },
    { name: "vendor products tab", path: `/api/admin/vendors/${v}/products?page=1&limit=20`, p95TargetMs: 5 },
    { name: "vendor sales tab", path: `/api/admin/vendors/${v}/sales?page=1&limit=20`, p95TargetMs: 5 },
    { name: "error list page 1", path: "/api/admin/errors?page=1&limit=20", p95TargetMs: 5 },
    { name: "error list deep (cursor)", path: `/api/admin/errors?limit=20&cursor=${encodeURIComponent(s.deepCursor)}`, p95TargetMs: 5 },
    { name: "error list level=warning", path: "/api/admin/errors?page=1&limit=20&level=warning", p95TargetMs: 5 },
    // Issue 23: every order of a list is a keyset walk of one index (migration 016), at any depth.
    { name: "error list oldest first", path: "/api/admin/errors?limit=20&sort=oldest", p95TargetMs: 5 },
    ...(s.oldestDeepCursor ? [{ name: "error list oldest deep (cursor)", path: `/api/admin/errors?limit=20&sort=oldest&cursor=${encodeURIComponent(s.oldestDeepCursor)}`, p95TargetMs: 5 }] : []),
    { name: "vendor list by name", path: "/api/admin/vendors?limit=20&sort=name", p95TargetMs: 5 },
    { name: "vendor list by joined (oldest)", path: "/api/admin/vendors?limit=20&sort=joined", p95TargetMs: 5 },
    { name: "vendor list by revenue", path: "/api/admin/vendors?limit=20&sort=-revenue", p95TargetMs: 5 },
    ...(s.vendorRevenueMidCursor
      ? [{ name: "vendor list by revenue deep (cursor)", path: `/api/admin/vendors?limit=20&sort=-revenue&cursor=${encodeURIComponent(s.vendorRevenueMidCursor)}`, p95TargetMs: 5 }]
      : []),
    { name: "vendor list inactive by products", path: "/api/admin/vendors?limit=20&sort=-products&status=inactive", p95TargetMs: 5 },
    { name: "vendor list internal by name", path: "/api/admin/vendors?limit=20&sort=name&status=internal", p95TargetMs: 5 },
    { name: "vendor search by revenue", path: `/api/admin/vendors?limit=20&sort=-revenue&search=${encodeURIComponent(s.nameSearch)}`, p95TargetMs: 5 },
    // Staff and the audit log (docs/product.md §14): two index lookups; keyset walks of audit_log's indexes.
    { name: "admin users list", path: "/api/admin/users?limit=50", p95TargetMs: 5 },
    { name: "admin users by last sign-in", path: "/api/admin/users?limit=50&sort=-lastSignIn", p95TargetMs: 5 },
    { name: "admin users by name", path: "/api/admin/users?limit=50&sort=name", p95TargetMs: 5 },
    { name: "audit log page 1", path: "/api/admin/audit-log?limit=50", p95TargetMs: 5 },
    { name: "audit log by actor", path: `/api/admin/audit-log?limit=50&actor=${encodeURIComponent(s.auditActor)}`, p95TargetMs: 5 },
    { name: "audit log by target", path: `/api/admin/audit-log?limit=50&targetType=vendor&targetId=${encodeURIComponent(s.auditTargetId)}`, p95TargetMs: 5 },
    { name: "settings", path: "/api/admin/settings", p95TargetMs: 2 },
    // Financials (docs/product.md §15): rollups, a balance index walked backwards, keyset payouts.
    { name: "financial overview 30 days", path: "/api/admin/financial/overview?period=30", p95TargetMs: 5 },
    { name: "financial overview ytd", path: "/api/admin/financial/overview?period=ytd", p95TargetMs: 5 },
    { name: "payouts list page 1", path: "/api/admin/financial/payouts?limit=20", p95TargetMs: 5 },
    { name: "payouts list status=paid", path: "/api/admin/financial/payouts?limit=20&status=paid", p95TargetMs: 5 },
    { name: "balances largest first", path: "/api/admin/financial/balances?limit=20", p95TargetMs: 5 },
    { name: "balances restricted", path: "/api/admin/financial/balances?limit=20&accountStatus=restricted", p95TargetMs: 5 },
    { name: "vendor payout account", path: `/api/admin/vendors/${v}/payout-account`, p95TargetMs: 5 },
    { name: "debug", path: "/api/debug/admin", p95TargetMs: 5 },
    // The products catalogue (docs/product.md §16): one (status, K, id[, name]) index walk per status, merged;
    // the trigram index for a search; counters and primary keys for the summary and the detail.
    { name: "products newest", path: "/api/admin/products?limit=50", p95TargetMs: 5 },
    { name: "products by price", path: "/api/admin/products?limit=50&sort=-price", p95TargetMs: 5 },
    { name: "products by units sold", path: "/api/admin/products?limit=50&sort=-sold", p95TargetMs: 5 },
    { name: "products by revenue", path: "/api/admin/products?limit=50&sort=-revenue", p95TargetMs: 5 },
    { name: "products search (name)", path: `/api/admin/products?limit=50&search=${encodeURIComponent(s.productName)}`, p95TargetMs: 5 },
    { name: "products search (word)", path: `/api/admin/products?limit=50&search=${encodeURIComponent(s.productWord)}`, p95TargetMs: 5 },
    // Issue 21: a search across vendors in every order. The word matches many (counted to the cap,
    // the page walks the sort's (status, K, id, name) index keeping matching names); the full name
    // few (read whole and sorted); with a status the total counts that status among the first matches.
    { name: "products search (word) by price", path: `/api/admin/products?limit=50&sort=-price&search=${encodeURIComponent(s.productWord)}`, p95TargetMs: 5 },
    { name: "products search (word) by units sold", path: `/api/admin/products?limit=50&sort=-sold&search=${encodeURIComponent(s.productWord)}`, p95TargetMs: 5 },
    { name: "products search (word) by revenue", path: `/api/admin/products?limit=50&sort=-revenue&search=${encodeURIComponent(s.productWord)}`, p95TargetMs: 5 },
    { name: "products search (name) by price", path: `/api/admin/products?limit=50&sort=price&search=${encodeURIComponent(s.productName)}`, p95TargetMs: 5 },
    { name: "products search (word) active by revenue", path: `/api/admin/products?limit=50&status=active&sort=-revenue&search=${encodeURIComponent(s.productWord)}`, p95TargetMs: 5 },
    // The same searches made for the first time (their counts not kept yet): shown, no budget.
    { name: "products search (word), first time", path: `/api/admin/products?limit=50&search=${encodeURIComponent(s.productWord)}`, p95TargetMs: null, afterAChange: true },
    { name: "products search (name), first time", path: `/api/admin/products?limit=50&search=${encodeURIComponent(s.productName)}`, p95TargetMs: null, afterAChange: true },
    { name: "products hidden", path: "/api/admin/products?limit=50&status=hidden", p95TargetMs: 5 },
    { name: "products of a vendor by revenue", path: `/api/admin/products?limit=50&vendorId=${v}&status=active&sort=-revenue`, p95TargetMs: 5 },
    { name: "product detail", path: `/api/admin/products/${encodeURIComponent(s.productId)}`, p95TargetMs: 5 },
    { name: "products summary", path: "/api/admin/products/summary", p95TargetMs: 5 },
    // Answers kept per data version (decision 0016): the rows above measure the kept answer, these
    // what the same requests cost right after any change (the session read again too).
    { name: "vendor list page 1, after a change", path: "/api/admin/vendors?page=1&limit=20", p95TargetMs: 5, afterAChange: true },
    { name: "vendor detail, after a change", path: `/api/admin/vendors/${v}`, p95TargetMs: 2, afterAChange: true },
    { name: "vendor sales tab, after a change", path: `/api/admin/vendors/${v}/sales?page=1&limit=20`, p95TargetMs: 5, afterAChange: true },
    { name: "vendor products tab, after a change", path: `/api/admin/vendors/${v}/products?page=1&limit=20`, p95TargetMs: 5, afterAChange: true },
    { name: "artist statement page 1, after a change", path: `/api/admin/vendors/${v}/statement?limit=25`, p95TargetMs: 5, afterAChange: true },
    { name: "error list page 1, after a change", path: "/api/admin/errors?page=1&limit=20", p95TargetMs: 5, afterAChange: true },
    { name: "settings, after a change", path: "/api/admin/settings", p95TargetMs: 2, afterAChange: true },
    // Orders (docs/product.md §19): one keyset walk of one orders index per filter and sort (migration 026).
    { name: "orders newest", path: "/api/admin/orders?limit=50", p95TargetMs: 5 },
    { name: "orders by buyer e-mail", path: `/api/admin/orders?limit=50&search=${encodeURIComponent(s.orderEmail)}`, p95TargetMs: 5 },
    { name: "orders by storefront order id", path: `/api/admin/orders?limit=50&search=${encodeURIComponent(s.externalOrderId)}`, p95TargetMs: 5 },
    { name: "orders refunded", path: "/api/admin/orders?limit=50&status=refunded", p95TargetMs: 5 },
    { name: "orders partly refunded", path: "/api/admin/orders?limit=50&status=partially_refunded", p95TargetMs: 5 },
    { name: "orders disputed", path: "/api/admin/orders?limit=50&status=disputed", p95TargetMs: 5 },
    { name: "orders of an artist", path: `/api/admin/orders?limit=50&vendorId=${v}`, p95TargetMs: 5 },
    { name: "orders of an artist refunded", path: `/api/admin/orders?limit=50&vendorId=${v}&status=refunded`, p95TargetMs: 5 },
    { name: "orders of a week", path: `/api/admin/orders?limit=50&from=${s.orderWeek.from}&to=${s.orderWeek.to}`, p95TargetMs: 5 },
    { name: "orders largest first", path: "/api/admin/orders?limit=50&sort=-amount", p95TargetMs: 5 },
    { name: "orders refunded largest first", path: "/api/admin/orders?limit=50&status=refunded&sort=-amount", p95TargetMs: 5 },
    { name: "orders of an artist smallest first", path: `/api/admin/orders?limit=50&vendorId=${v}&sort=amount`, p95TargetMs: 5 },
    { name: "order detail", path: `/api/admin/orders/${encodeURIComponent(s.orderId)}`, p95TargetMs: 5 },
    // The artist's statement (docs/product.md §15.8) of the busiest artist: computed from that artist's own rows, read through their indexes.
    { name: "artist statement page 1", path: `/api/admin/vendors/${v}/statement?limit=25`, p95TargetMs: 5 },
    // Announcements (docs/product.md §17): history by keyset with its counts; recipients by keyset of one index.
    ...(s.announcementId ? announcementEndpoints(s.announcementId, s.recipientsMidCursor ?? "") : []),
  ];
}

function announcementEndpoints(id: string, midCursor: string): Endpoint[] {
  const a = `/api/admin/communications/announcements/${encodeURIComponent(id)}`;
  return [
    { name: "announcements history", path: "/api/admin/communications/announcements?limit=20", p95TargetMs: 5 },
    { name: "announcement", path: a, p95TargetMs: 5 },
    { name: "announcement recipients page 1", path: `${a}/recipients?limit=50`, p95TargetMs: 5 },
    { name: "announcement recipients deep", path: `${a}/recipients?limit=50&cursor=${encodeURIComponent(midCursor)}`, p95TargetMs: 5 },
    { name: "announcement recipients sent", path: `${a}/recipients?limit=50&status=sent`, p95TargetMs: 5 },
    { name: "announcement recipients canceled", path: `${a}/recipients?limit=50&status=canceled`, p95TargetMs: 5 },
  ];
}

/** The read mix under load: what an admin's screens request, dashboard-heavy. */
export function loadMix(s: Subjects): string[] {
  const e = endpointsFor(s);
  const pick = (name: string) => e.find((x) => x.name === name)!.path;
  return [
    pick("dashboard stats"),
    pick("dashboard stats"),
    pick("analytics 30 days"),
    pick("vendor list page 1"),
    pick("vendor detail"),
    pick("vendor sales tab"),
    pick("error list page 1"),
    pick("settings"),
  ];
}
