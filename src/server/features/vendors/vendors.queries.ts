import { type RawBuilder, type Selectable, sql } from "kysely";
import type {
  AdminVendorRow,
  AdminVendorsQuery,
  ArtistApplication,
  ArtistStatus,
  VendorCounts,
  VendorDetail,
  VendorListItem,
  VendorProduct,
  VendorSale,
  VendorStatusEntry,
} from "../../../contract/vendors.ts";
import { artistStatusOf } from "../../domain/ledger/vendors.ts";
import type { Database } from "../../platform/db/connect.ts";
import type { DB, Vendor } from "../../platform/db/schema.ts";
import { COUNTERS, readCounters } from "../../domain/ledger/counters.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { sanitizeCustomCss, shownCustomHtml } from "../../domain/customization/sanitize-customization.ts";
import { centsToDollars } from "../../domain/money.ts";

/**
 * The only place vendor SQL lives. Nothing here scans vendors, products or orders: counts come
 * from the ledger's counters, detail stats from vendor_totals, search from a trigram index
 * (migration 004), pages from the (flag, joined_at, id) indexes, per-vendor lists from the
 * (vendor_id, created_at, id) indexes.
 */

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The columns a list row shows: never the customisation texts, which can be large. */
const LIST_COLUMNS = ["id", "name", "owner_name", "email", "slug", "joined_at", "is_active", "is_internal"] as const;
type VendorListRow = Pick<Vendor, (typeof LIST_COLUMNS)[number]>;

/** Who a vendor is, as every vendor answer names it (the list's rows and the detail). */
function vendorIdentity(v: Pick<Vendor, "id" | "name" | "owner_name" | "email" | "slug">) {
  return { id: v.id, name: v.name, owner: v.owner_name, email: v.email, slug: v.slug };
}

export function toVendorListItem(v: VendorListRow): VendorListItem {
  return {
    ...vendorIdentity(v),
    joinedDate: v.joined_at,
    isActive: v.is_active === 1,
    isInternal: v.is_internal === 1,
  };
}

/** Total / active / inactive / internal from the ledger's counters: four primary-key reads. */
export async function readVendorCounts(db: Executor): Promise<VendorCounts> {
  const c = await readCounters(db);
  const total = c[COUNTERS.vendorsTotal];
  const active = c[COUNTERS.vendorsActive];
  return { total, active, inactive: total - active, internal: c[COUNTERS.vendorsInternal], applications: c[COUNTERS.vendorsPending] };
}

/** Shorter queries have no trigram, so no index can serve them (they fall back to a scan). */
export const MIN_INDEXED_SEARCH_LENGTH = 3;

/**
 * A search counts its matches only up to this many: counting every vendor whose e-mail contains
 * "example" costs a walk over all of them, and nobody pages through a thousand matches (they refine).
 */
export const SEARCH_COUNT_CAP = 1000;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export interface VendorPage {
  vendors: AdminVendorRow[];
  total: number;
  /** True when the search has more than SEARCH_COUNT_CAP matches (total is then the cap). */
  totalCapped: boolean;
  counts: VendorCounts;
}

export const statusCondition = (status: AdminVendorsQuery["status"], alias: string) =>
  status === "active"
    ? sql.raw(`and ${alias}.is_active = 1`)
    : status === "inactive"
      ? sql.raw(`and ${alias}.is_active = 0`)
      : status === "internal"
        ? sql.raw(`and ${alias}.is_internal = 1`)
        : sql.raw("");

/** The SQLite condition matching `search` on the trigram table vendor_search. */
export function sqliteSearchMatch(search: string): RawBuilder<unknown> {
  return [...search].length >= MIN_INDEXED_SEARCH_LENGTH
    ? // A quoted FTS5 phrase is matched literally: no query syntax can be injected through it.
      sql`vendor_search match ${`"${search.replace(/"/g, '""')}"`}`
    : sql`vendor_search.body like ${`%${escapeLike(search)}%`} escape '\\'`;
}

/** The PostgreSQL condition matching `search` on vendors `v` (the pg_trgm index on search_text). */
export function postgresSearchMatch(search: string): RawBuilder<unknown> {
  return sql`v.search_text like lower(${`%${escapeLike(search)}%`}) escape '\\'`;
}

/**
 * The trigram-table keys (vendor_search rowids) matching a search, newest first: all of them when
 * `complete`, else the newest `max`. Kept per vendor-search version by the service
 * (vendor-matches.ts); SQLite only.
 */
export interface SearchMatches {
  keys: number[];
  complete: boolean;
}
export type MatchesOf = (search: string) => Promise<SearchMatches>;

/** SQLite: the keys matching `search`, up to `max` (the trigram match, read once per kept search). */
export async function sqliteMatchKeys(db: Executor, search: string, max: number): Promise<SearchMatches> {
  // FTS5 walks its rowids backwards itself: the newest matches come first, unsorted here.
  const rows = await sql<{ key: number }>`select rowid as key from vendor_search where ${sqliteSearchMatch(search)} order by rowid desc limit ${max + 1}`.execute(db);
  return { keys: rows.rows.slice(0, max).map((r) => r.key), complete: rows.rows.length <= max };
}

/** Vendor ids of matched keys passing a status filter, newest key first (one join per key). */
async function idsOfMatchedKeys(db: Executor, keys: number[], status: AdminVendorsQuery["status"]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await sql<{ id: string }>`select k.vendor_id as id from vendor_search_keys k join vendors v on v.id = k.vendor_id
    where k.key in (${sql.join(keys)}) ${statusCondition(status, "v")} order by k.key desc`.execute(db);
  return rows.rows.map((r) => r.id);
}

/**
 * Ids of up to `max` vendors matching a search and status filter, in no particular order: what a
 * sorted search orders (it is sorted only when the matches are few; the caller asks for one more
 * than it accepts to know).
 */
export async function searchMatchIds(database: Database, search: string, status: AdminVendorsQuery["status"], max: number, matchesOf: MatchesOf): Promise<string[]> {
  if (database.kind === "postgres") {
    const rows = await sql<{ id: string }>`select v.id as id from vendors v where ${postgresSearchMatch(search)} ${statusCondition(status, "v")} limit ${max}`.execute(database.db);
    return rows.rows.map((r) => r.id);
  }
  const matched = await matchesOf(search);
  if (matched.complete) return (await idsOfMatchedKeys(database.db, matched.keys, status)).slice(0, max);
  const rows = await sql<{ id: string }>`select k.vendor_id as id from vendor_search join vendor_search_keys k on k.key = vendor_search.rowid
    join vendors v on v.id = k.vendor_id where ${sqliteSearchMatch(search)} ${statusCondition(status, "v")} limit ${max}`.execute(database.db);
  return rows.rows.map((r) => r.id);
}

/**
 * SQLite: matches come from the FTS5 trigram table (migration 005), newest key first, joined to
 * vendors by integer key, so a page stops after `limit` matches however common the term is.
 */
async function searchSqlite(database: Database, query: AdminVendorsQuery, search: string, matchesOf: MatchesOf): Promise<{ ids: string[]; total: number }> {
  const { db } = database;
  const match = sqliteSearchMatch(search);
  const offset = (query.page - 1) * query.limit;
  const countCapped = (countFrom: RawBuilder<unknown>) => sql<{ n: number }>`select count(*) as n from (select 1 ${countFrom} limit ${SEARCH_COUNT_CAP + 1}) t`.execute(db);

  // A search for a store's name has few matches: the kept matches (all of them, newest key first)
  // give the page and the exact total; a status filter is applied to them here, on every request.
  const matched = await matchesOf(search);
  if (matched.complete) {
    const ids = query.status === undefined ? await vendorIdsForKeys(database, matched.keys.slice(offset, offset + query.limit)) : await idsOfMatchedKeys(db, matched.keys, query.status);
    return query.status === undefined ? { ids, total: matched.keys.length } : { ids: ids.slice(offset, offset + query.limit), total: ids.length };
  }

  // A broad term (more matches than the count cap): its newest matches are kept too, so a page
  // among them needs no trigram read, and its total is capped anyway. Without this the full set's
  // surname search read the trigram lists twice per request (growth 1.5–1.9 against the tenth,
  // whose matches all fit).
  if (query.status === undefined && matched.keys.length >= SEARCH_COUNT_CAP && offset + query.limit <= matched.keys.length) {
    return { ids: await vendorIdsForKeys(database, matched.keys.slice(offset, offset + query.limit)), total: SEARCH_COUNT_CAP + 1 };
  }

  if (query.status === undefined && offset + query.limit <= SEARCH_COUNT_CAP) {
    // A broad term without a status filter: the trigram table alone answers (the triggers keep
    // exactly one row there per vendor): its newest page in index order, and a capped count on the
    // trigram table alone (two joins per match cheaper than through vendors).
    const page = await sql<{ key: number }>`select rowid as key from vendor_search where ${match} order by rowid desc limit ${query.limit} offset ${offset}`.execute(db);
    const counted = await countCapped(sql`from vendor_search where ${match}`);
    return {
      ids: await vendorIdsForKeys(
        database,
        page.rows.map((r) => r.key),
      ),
      total: Number(counted.rows[0]?.n ?? 0),
    };
  }

  const from = sql`from vendor_search join vendor_search_keys k on k.key = vendor_search.rowid
    join vendors v on v.id = k.vendor_id where ${match} ${statusCondition(query.status, "v")}`;
  const rows = await sql<{ id: string }>`select v.id as id ${from} order by vendor_search.rowid desc
    limit ${query.limit} offset ${(query.page - 1) * query.limit}`.execute(db);
  const ids = rows.rows.map((r) => r.id);
  return { ids, total: await searchTotal(ids.length, query, () => countCapped(from)) };
}

/** Vendor ids of trigram-table keys, in the keys' order. */
async function vendorIdsForKeys(database: Database, keys: number[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await sql<{ key: number; vendor_id: string }>`select key, vendor_id from vendor_search_keys where key in (${sql.join(keys)})`.execute(database.db);
  const byKey = new Map(rows.rows.map((r) => [r.key, r.vendor_id]));
  return keys.flatMap((key) => byKey.get(key) ?? []);
}

/** PostgreSQL: the pg_trgm GIN index on search_text (migration 004), newest joined first. */
async function searchPostgres(database: Database, query: AdminVendorsQuery, search: string): Promise<{ ids: string[]; total: number }> {
  const { db } = database;
  const from = sql`from vendors v where ${postgresSearchMatch(search)} ${statusCondition(query.status, "v")}`;
  const rows = await sql<{ id: string }>`select v.id as id ${from} order by v.joined_at desc, v.id desc
    limit ${query.limit} offset ${(query.page - 1) * query.limit}`.execute(db);
  const ids = rows.rows.map((r) => r.id);
  return { ids, total: await searchTotal(ids.length, query, () => sql<{ n: number }>`select count(*) as n from (select 1 ${from} limit ${SEARCH_COUNT_CAP + 1}) t`.execute(db)) };
}

/**
 * The number of matches of a search. A short page already tells it (offset + its rows: the typical
 * search for one store's name), which saves running the trigram match a second time; otherwise
 * the matches are counted up to SEARCH_COUNT_CAP + 1.
 */
async function searchTotal(pageRows: number, query: AdminVendorsQuery, countCapped: () => Promise<{ rows: Array<{ n: number }> }>): Promise<number> {
  const offset = (query.page - 1) * query.limit;
  if (pageRows < query.limit && (pageRows > 0 || offset === 0)) return offset + pageRows;
  return Number((await countCapped()).rows[0]?.n ?? 0);
}

/** The list rows of `ids`, in that order, with the figures the list sorts by (one vendor_totals row each). */
export async function fetchAdminRows(db: Executor, ids: string[]): Promise<AdminVendorRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("vendors as v")
    .leftJoin("vendor_totals as t", "t.vendor_id", "v.id")
    .select(["v.id", "v.name", "v.owner_name", "v.email", "v.slug", "v.joined_at", "v.is_active", "v.is_internal", "t.listed_products", "t.gross_cents"])
    .where("v.id", "in", ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [{ ...toVendorListItem(r), products: Number(r.listed_products ?? 0), revenue: centsToDollars(Number(r.gross_cents ?? 0)) }] : [];
  });
}

/** One page of vendors, filtered and searched on the server; a list without search is newest joined first. */
export async function listVendorsPage(database: Database, query: AdminVendorsQuery, matchesOf: MatchesOf): Promise<VendorPage> {
  // The summary counts and the page are independent: read at once (one round trip of waiting on PostgreSQL).
  const [counts, page] = await Promise.all([readVendorCounts(database.db), vendorsOfPage(database, query, matchesOf)]);
  return { ...page, total: page.total ?? (query.status ? counts[query.status] : counts.total), counts };
}

/** The page's vendors; `total` only for a search (a plain list's total comes from the counters). */
async function vendorsOfPage(database: Database, query: AdminVendorsQuery, matchesOf: MatchesOf): Promise<{ vendors: AdminVendorRow[]; total: number | null; totalCapped: boolean }> {
  const { db, kind } = database;
  const search = query.search?.trim() ?? "";
  if (search !== "") {
    // An artist's storefront id (docs/integration.md) finds that vendor: one probe of vendors_external_idx.
    const byStorefrontId = (await sql<{ id: string }>`select v.id as id from vendors v where v.external_id = ${search} ${statusCondition(query.status, "v")}`.execute(db)).rows[0];
    if (byStorefrontId && query.page === 1) return { vendors: await fetchAdminRows(db, [byStorefrontId.id]), total: 1, totalCapped: false };
    const found = kind === "postgres" ? await searchPostgres(database, query, search) : await searchSqlite(database, query, search, matchesOf);
    return { vendors: await fetchAdminRows(db, found.ids), total: Math.min(found.total, SEARCH_COUNT_CAP), totalCapped: found.total > SEARCH_COUNT_CAP };
  }

  let base = db.selectFrom("vendors");
  if (query.status === "active") base = base.where("is_active", "=", 1);
  if (query.status === "inactive") base = base.where("is_active", "=", 0);
  if (query.status === "internal") base = base.where("is_internal", "=", 1);
  // Deferred join: the offset walks the covering (flag, joined_at, id) index only; full rows
  // are fetched for the page's ids alone.
  const ids = await base
    .select("id")
    .orderBy("joined_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return {
    vendors: await fetchAdminRows(
      db,
      ids.map((r) => r.id),
    ),
    total: null,
    totalCapped: false,
  };
}

async function fetchVendorsInOrder(database: Database, ids: string[]): Promise<VendorListRow[]> {
  if (ids.length === 0) return [];
  const rows = await database.db.selectFrom("vendors").select(LIST_COLUMNS).where("id", "in", ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The array call of docs/product.md §10.4: newest first, internal vendors only on request, at most `max` rows. */
export async function listVendorsArray(database: Database, includeInternal: boolean, max: number): Promise<VendorListItem[]> {
  let q = database.db.selectFrom("vendors").select("id");
  if (!includeInternal) q = q.where("is_internal", "=", 0);
  const ids = await q.orderBy("joined_at", "desc").orderBy("id", "desc").limit(max).execute();
  return (
    await fetchVendorsInOrder(
      database,
      ids.map((r) => r.id),
    )
  ).map(toVendorListItem);
}

export async function findVendor(db: Executor, vendorId: string): Promise<Vendor | undefined> {
  return db.selectFrom("vendors").selectAll().where("id", "=", vendorId).executeTakeFirst();
}

/** The vendor detail (docs/product.md §11.3): O(1) reads of the vendor row and its vendor_totals row. */
export async function getVendorDetail(db: Executor, vendorId: string): Promise<VendorDetail | null> {
  // Both reads at once: on PostgreSQL that is one round trip of waiting instead of two.
  const [v, t, history] = await Promise.all([
    findVendor(db, vendorId),
    db.selectFrom("vendor_totals").selectAll().where("vendor_id", "=", vendorId).executeTakeFirst(),
    readStatusHistory(db, vendorId, STATUS_HISTORY_SHOWN),
  ]);
  if (!v) return null;
  const orders = t?.orders ?? 0;
  const gross = Number(t?.gross_cents ?? 0);
  const visits = t?.visits ?? 0;
  return {
    ...vendorIdentity(v),
    status: v.is_active === 1 ? "active" : "suspended",
    isInternal: v.is_internal === 1,
    joinedDate: v.joined_at,
    stats: {
      totalProducts: t?.listed_products ?? 0,
      revenue: centsToDollars(gross),
      totalSales: orders,
      avgOrderValue: orders > 0 ? round2(centsToDollars(gross) / orders) : 0,
      conversionRate: visits > 0 ? round2((orders / visits) * 100) : 0,
      lastSaleDate: t?.last_sale_at ?? null,
    },
    customization: {
      theme: v.theme,
      primaryColor: v.primary_color,
      secondaryColor: v.secondary_color,
      about: v.about,
      customCSS: sanitizeCustomCss(v.custom_css),
      customHTML: shownCustomHtml(v),
    },
    artistStatus: artistStatusOf(v),
    statusReason: v.status_reason,
    statusHistory: history,
    application: v.application === null ? null : (JSON.parse(v.application) as ArtistApplication),
    appliedAt: v.applied_at,
    trusted: v.trusted === 1,
    takedowns: v.takedowns,
  };
}

/** Status decisions shown on the artist's page. */
const STATUS_HISTORY_SHOWN = 50;

/** An artist's most recent status decisions, newest first (vendor_status_changes_vendor_idx). */
export async function readStatusHistory(db: Executor, vendorId: string, limit: number): Promise<VendorStatusEntry[]> {
  const rows = await db.selectFrom("vendor_status_changes").selectAll().where("vendor_id", "=", vendorId).orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    fromStatus: r.from_status as ArtistStatus,
    toStatus: r.to_status as ArtistStatus,
    reason: r.reason,
    actorEmail: r.actor_email,
    createdAt: r.created_at,
  }));
}

export interface Paged<T> {
  rows: T[];
  total: number;
}

/**
 * One page of a vendor's rows of `table`, newest first, each as `toItem` makes it. The count and the
 * page of ids walk only that vendor's (vendor_id, created_at, id) index range; then just that page's
 * rows are read.
 */
async function vendorPage<T extends "products" | "orders", I>(db: Executor, table: T, vendorId: string, page: number, limit: number, toItem: (row: Selectable<DB[T]>) => I): Promise<Paged<I>> {
  // Both tables have vendor_id, created_at and id; Kysely cannot type a query over a union of
  // table names, so the query is written against one and its rows retyped for the caller.
  const from = table as "products";
  const base = db.selectFrom(from).where("vendor_id", "=", vendorId);
  // The count and the page's ids are independent: read at once (one round trip of waiting on PostgreSQL).
  const [{ n }, ids] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    base
      .select("id")
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
  ]);
  if (ids.length === 0) return { rows: [], total: Number(n) };
  const rows = await db
    .selectFrom(from)
    .selectAll()
    .where(
      "id",
      "in",
      ids.map((r) => r.id),
    )
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return { rows: (rows as unknown as Selectable<DB[T]>[]).map(toItem), total: Number(n) };
}

/** A vendor's products, newest first. */
export async function listVendorProducts(db: Executor, vendorId: string, page: number, limit: number): Promise<Paged<VendorProduct>> {
  return vendorPage(db, "products", vendorId, page, limit, (p) => ({
    id: p.id,
    name: p.name,
    price: centsToDollars(p.price_cents),
    inventory: p.inventory,
    status: p.status,
    sold: p.units_sold,
    revenue: centsToDollars(p.revenue_cents),
    createdAt: p.created_at,
  }));
}

/** A vendor's orders, newest first (all statuses, so refunds are visible too). */
export async function listVendorSales(db: Executor, vendorId: string, page: number, limit: number): Promise<Paged<VendorSale>> {
  return vendorPage(db, "orders", vendorId, page, limit, (o) => ({
    id: o.id,
    date: o.created_at,
    productName: o.product_name,
    items: o.quantity,
    total: centsToDollars(o.gross_cents),
    platformFee: centsToDollars(o.fee_cents),
    status: o.status,
  }));
}

/** The local account of a vendor's owner (e-mail and role), for the delete guard; undefined when there is none. */
export async function findOwnerAccount(db: Executor, userId: string): Promise<{ email: string; role: string } | undefined> {
  return db.selectFrom("users").select(["email", "role"]).where("id", "=", userId).executeTakeFirst();
}
