import { PostgresAdapter, type RawBuilder, sql } from "kysely";
import {
  OVER_LIMIT_FILTER_VENDORS,
  PRODUCT_COUNT_CAP,
  PRODUCT_SEARCH_CAP,
  PRODUCT_SEARCH_CAP_POSTGRES,
  type ProductListItem,
  type ProductModerationEntry,
  type ProductSort,
  type ProductStatus,
  type ProductsFilters,
} from "../../../contract/products.ts";
import type { Executor } from "../../platform/db/executor.ts";
import type { Product } from "../../platform/db/schema.ts";
import { COUNTERS, readCounters } from "../../domain/ledger/counters.ts";
import { readProductLimit } from "../../domain/ledger/product-limit.ts";
import { encodeProductCursor, type ProductCursor } from "./products-cursor.ts";

/**
 * The only place product-catalogue SQL lives (docs/product.md §16). Nothing here scans products:
 * a page walks one `(status, K, id)` or `(vendor_id, status, K, id)` index per status (migration
 * 013) from the cursor and merges the walks; a search reads the trigram index; totals come from
 * the ledger's counters or an index range counted up to PRODUCT_COUNT_CAP + 1.
 */

type DbStatus = Product["status"];
const STATUSES: readonly DbStatus[] = ["listed", "draft", "hidden", "pending_review", "rejected"];

export const toDbStatus = (s: ProductStatus): DbStatus => (s === "active" ? "listed" : s);
export const toApiStatus = (s: DbStatus): ProductStatus => (s === "listed" ? "active" : s);

const cents = (value: number | string) => Number(value) / 100;

interface SortSpec {
  column: "created_at" | "price_cents" | "units_sold" | "revenue_cents";
  descending: boolean;
}

export function sortSpec(sort: ProductSort): SortSpec {
  if (sort === "newest") return { column: "created_at", descending: true };
  const descending = sort.startsWith("-");
  const key = descending ? sort.slice(1) : sort;
  const column = key === "created" ? "created_at" : key === "price" ? "price_cents" : key === "sold" ? "units_sold" : "revenue_cents";
  return { column, descending };
}

const isPostgres = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export interface ProductRowsPage {
  ids: string[];
  next: ProductCursor | null;
}

export interface ListInput extends ProductsFilters {
  sort: ProductSort;
  limit: number;
  /** The decoded position after which the page starts (products-cursor.ts). */
  after?: ProductCursor | undefined;
}

/** `and` conditions of the vendor and status filters on alias `p`. */
function filterSql(filters: ProductsFilters, alias = "p"): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (filters.vendorId !== undefined) parts.push(sql`${sql.ref(`${alias}.vendor_id`)} = ${filters.vendorId}`);
  if (filters.status !== undefined) parts.push(sql`${sql.ref(`${alias}.status`)} = ${toDbStatus(filters.status)}`);
  return parts.length === 0 ? sql`` : sql` and ${sql.join(parts, sql` and `)}`;
}

/** `(K, id) > / < (value, id)` after the cursor, in the sort's direction. */
function afterSql(spec: SortSpec, cursor: { value: string | number; id: string } | undefined, alias = "p"): RawBuilder<unknown> {
  if (!cursor) return sql``;
  const value = spec.column === "created_at" ? String(cursor.value) : Number(cursor.value);
  const op = sql.raw(spec.descending ? "<" : ">");
  return sql` and (${sql.ref(`${alias}.${spec.column}`)}, ${sql.ref(`${alias}.id`)}) ${op} (${value}, ${cursor.id})`;
}

const orderSql = (spec: SortSpec, alias?: string) => {
  const dir = sql.raw(spec.descending ? "desc" : "asc");
  const col = (c: string) => sql.ref(alias ? `${alias}.${c}` : c);
  return sql`order by ${col(spec.column)} ${dir}, ${col("id")} ${dir}`;
};

/**
 * One page without a search: one index walk per status asked for, each stopping after limit + 1
 * rows past the cursor, merged in the sort's order.
 */
async function plainPage(
  db: Executor,
  filters: ProductsFilters,
  spec: SortSpec,
  limit: number,
  cursor: ProductCursor | undefined,
  nameFilter: RawBuilder<unknown>,
  vendors: string[] | undefined,
): Promise<ProductRowsPage> {
  const after = cursor;
  const statuses = filters.status ? [toDbStatus(filters.status)] : STATUSES;
  if (vendors?.length === 0) return { ids: [], next: null };
  const range = ([status, vendorId]: [DbStatus, string | undefined]) =>
    sql`select p.id as id, ${sql.ref(`p.${spec.column}`)} as k from products p where p.status = ${status}
      ${vendorId !== undefined ? sql`and p.vendor_id = ${vendorId}` : sql``} ${nameFilter}
      ${afterSql(spec, after)}`;
  const walk = (w: [DbStatus, string | undefined]) => sql`${range(w)} ${orderSql(spec, "p")} limit ${limit + 1}`;
  const byKey = sql`${orderSql({ ...spec, column: "k" as SortSpec["column"] })} limit ${limit + 1}`;
  // One walk per status (and per vendor when the list is narrowed to some).
  const walks = statuses.flatMap((s) => (vendors ?? [undefined]).map((v): [DbStatus, string | undefined] => [s, v]));
  const merged =
    walks.length === 1
      ? walk(walks[0]!)
      : isPostgres(db)
        ? sql`select id, k from (${sql.join(
            walks.map((w, i) => sql`select id, k from (${walk(w)}) ${sql.id(`w${i}`)}`),
            sql` union all `,
          )}) merged ${byKey}`
        : // SQLite merges the walks of a compound select in its ORDER BY ("MERGE (UNION ALL)"), pulling
          // from each only as far as the page needs: a status holding few of the matches is read a
          // few entries deep instead of until its own limit + 1 (a narrow search across vendors in
          // 1.8 ms instead of 6 at a million products).
          sql`${sql.join(walks.map(range), sql` union all `)} ${byKey}`;
  const rows = (await merged.execute(db)).rows as Array<{ id: string; k: string | number }>;
  return pageOf(rows, limit, (r) => ({ sort: spec, value: r.k, id: r.id }));
}

function pageOf<R extends { id: string }>(rows: R[], limit: number, cursorOf: (row: R) => ProductCursor): ProductRowsPage {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { ids: page.map((r) => r.id), next: rows.length > limit && last ? cursorOf(last) : null };
}

/** A match of a search with what sorting and filtering it needs (read along with the match: no second lookup). */
interface Match {
  id: string;
  vendor_id: string;
  status: DbStatus;
  created_at: string;
  price_cents: number | string;
  units_sold: number | string;
  revenue_cents: number | string;
}

const MATCH_COLUMNS = sql`p.id as id, p.vendor_id as vendor_id, p.status as status, p.created_at as created_at, p.price_cents as price_cents, p.units_sold as units_sold, p.revenue_cents as revenue_cents`;

/** A quoted FTS5 phrase is matched literally: no query syntax can be injected through it. */
const ftsMatch = (search: string) => sql`product_search match ${`"${search.replace(/"/g, '""')}"`}`;
const pgMatch = (search: string, alias = "p") => sql`${sql.ref(`${alias}.name_search`)} like ${`%${escapeLike(search.toLowerCase())}%`} escape '\\'`;

/**
 * A match of a search as it is kept per catalogue version (search-counts.ts): who matches, and the
 * keys only a catalogue change moves (status, price: migrations 020, 032; a product's creation time
 * never changes). Sales are not here: they change with every order.
 */
export type KeptMatch = Pick<Match, "id" | "status" | "created_at" | "price_cents">;

/** The first `limit` matches of a search across vendors, from either database's trigram index, with their kept keys. */
async function readKeptMatches(db: Executor, search: string, limit: number): Promise<KeptMatch[]> {
  // PostgreSQL's search table holds the kept keys beside the text (migration 033): no product row is read.
  const rows = isPostgres(db)
    ? await sql<KeptMatch>`select s.product_id as id, s.status as status, s.created_at as created_at, s.price_cents as price_cents
        from product_search s where ${pgMatch(search, "s")} limit ${limit}`.execute(db)
    : await sql<KeptMatch>`select p.id as id, p.status as status, p.created_at as created_at, p.price_cents as price_cents
        from product_search s join product_search_keys k on k.key = s.rowid join products p on p.id = k.product_id where ${ftsMatch(search)} limit ${limit}`.execute(db);
  return rows.rows;
}

/**
 * What sorting and filtering matches needs, read now for the given products (by primary key). On
 * PostgreSQL the ids go as one array parameter: an IN list of ~1,000 parameters is parsed and
 * planned afresh on every request.
 */
async function readMatchesByIds(db: Executor, ids: string[]): Promise<Match[]> {
  if (ids.length === 0) return [];
  const byId = isPostgres(db) ? sql`p.id = any(${ids}::text[])` : sql`p.id in (${sql.join(ids)})`;
  return (await sql<Match>`select ${MATCH_COLUMNS} from products p where ${byId}`.execute(db)).rows;
}

/** Counts a search's matches across vendors through the trigram index alone (no product row read: on PostgreSQL it lives apart, migration 033), up to `cap` + 1. */
async function countMatches(db: Executor, search: string, cap: number): Promise<number> {
  const from = isPostgres(db) ? sql`from product_search s where ${pgMatch(search, "s")}` : sql`from product_search where ${ftsMatch(search)}`;
  const row = await sql<{ n: number | string }>`select count(*) as n from (select 1 as one ${from} limit ${cap + 1}) t`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}

/**
 * The matches of one status among the first `cap` + 1 of a search: the status is read beside the
 * search key (SQLite: migration 019; PostgreSQL: 033), in the trigram index's key order, not each product's row.
 */
async function countMatchesOfStatus(db: Executor, search: string, status: DbStatus, cap: number): Promise<number> {
  const first = isPostgres(db)
    ? sql`select s.status as status from product_search s where ${pgMatch(search, "s")}`
    : sql`select k.status as status from product_search s join product_search_keys k on k.key = s.rowid where ${ftsMatch(search)}`;
  const row = await sql<{ n: number | string }>`select count(*) as n from (${first} limit ${cap + 1}) t where t.status = ${status}`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}

/**
 * What a search across vendors reads from the trigram index: its counts, and the ids of a narrow
 * search's matches. They depend on names and statuses only, so the service keeps them per
 * catalogue version (search-counts.ts); prices, sales and statuses are read per request.
 */
export interface SearchIndexReads {
  /** The search's matches, counted up to `cap` + 1. */
  matched(search: string, cap: number): Promise<number>;
  /** The matches of `status` among the search's first `cap` + 1. */
  ofStatus(search: string, status: DbStatus, cap: number): Promise<number>;
  /** The search's first `limit` matches with their kept keys (asked only when they are at most the cap). */
  keptMatches(search: string, limit: number): Promise<KeptMatch[]>;
}

export const readSearchIndex = (db: Executor): SearchIndexReads => ({
  matched: (search, cap) => countMatches(db, search, cap),
  ofStatus: (search, status, cap) => countMatchesOfStatus(db, search, status, cap),
  keptMatches: (search, limit) => readKeptMatches(db, search, limit),
});

/** The sort value of a match, as the cursor holds it. */
const keyOf = (m: KeptMatch | Match, spec: SortSpec): string | number => (spec.column === "created_at" ? m.created_at : Number((m as Match)[spec.column]));

function compareMatches(spec: SortSpec) {
  return (a: KeptMatch | Match, b: KeptMatch | Match) => {
    const ka = keyOf(a, spec);
    const kb = keyOf(b, spec);
    const c = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return spec.descending ? -c : c;
  };
}

/** Kept matches in each order asked, sorted once per kept list (a list is replaced, never changed, when the catalogue changes). */
const keptOrders = new WeakMap<readonly KeptMatch[], Map<string, KeptMatch[]>>();

function sortedOnce(kept: readonly KeptMatch[], spec: SortSpec): KeptMatch[] {
  let orders = keptOrders.get(kept);
  if (!orders) keptOrders.set(kept, (orders = new Map()));
  const key = `${spec.column}:${spec.descending}`;
  let sorted = orders.get(key);
  if (!sorted) orders.set(key, (sorted = [...kept].sort(compareMatches(spec))));
  return sorted;
}

/** How far a search across vendors counts its matches (docs/product.md §16.2): PostgreSQL rechecks each match against the table. */
export const searchCountCap = (db: Executor) => (isPostgres(db) ? PRODUCT_SEARCH_CAP_POSTGRES : PRODUCT_SEARCH_CAP);

/**
 * Up to how many matches a search across vendors is sorted whole (each match's row read, filtered
 * and sorted here) rather than found by walking its sort's index. A row read costs about forty
 * steps of the walk (the name is in the index entry: migration 018), and the walk takes about
 * (limit + 1) × products / matches steps, so the two cost the same near
 * sqrt((limit + 1) × products / 40) matches (about 1,100 at a million products and a page of 50;
 * at worst some 1,100 rows read, or 45,000 index entries walked).
 */
export function sortWholeThreshold(products: number, limit: number, cap: number): number {
  return Math.min(cap, Math.max(100, Math.round(Math.sqrt(((limit + 1) * products) / 40))));
}

/**
 * One page of a search across vendors, with its total. The matches are counted through the trigram
 * index up to the cap + 1 (searchCountCap). A search matching few (at most sortWholeThreshold) is
 * read whole, filtered and sorted here; a broader one walks its sort's `(status, K, id, name)`
 * indexes from the cursor keeping the names that match, as a list without a search does (its
 * matches are dense, so the walk is short). Both answer the same keyset order, so a cursor of one
 * serves the other if the matches change between pages.
 *
 * With a status filter the total counts the matches of that status among the first cap + 1
 * matches: exact when the search matches at most the cap, else a lower bound (`totalCapped`), as
 * counting the rest would read every match.
 */
async function searchPage(db: Executor, input: ListInput, search: string, spec: SortSpec, cursor: ProductCursor | undefined, index: SearchIndexReads): Promise<ProductRowsPage & { total: Total }> {
  const cap = searchCountCap(db);
  const [matched, counters] = await Promise.all([index.matched(search, cap), readCounters(db)]);
  const status = input.status === undefined ? undefined : toDbStatus(input.status);
  // Sorted by a key kept with the matches, any search up to the cap is cut from them; by sales, only
  // a narrow one is read whole (its rows read now), a broader one walks its sort's index.
  const byKeptKey = spec.column === "created_at" || spec.column === "price_cents";
  if (matched <= cap && (byKeptKey || matched <= sortWholeThreshold(counters[COUNTERS.productsTotal], input.limit, cap))) {
    const order = compareMatches(spec);
    const kept = await index.keptMatches(search, cap + 1);
    const sorted = byKeptKey
      ? sortedOnce(kept, spec)
      : (
          await readMatchesByIds(
            db,
            kept.map((m) => m.id),
          )
        ).sort(order);
    const from = cursor ? ({ id: cursor.id, created_at: String(cursor.value), price_cents: cursor.value, units_sold: cursor.value, revenue_cents: cursor.value } as Match) : undefined;
    // One pass: the total of the status asked for, and the page after the cursor.
    let total = 0;
    const rows: Array<KeptMatch | Match> = [];
    for (const m of sorted) {
      if (status !== undefined && m.status !== status) continue;
      total++;
      if (rows.length <= input.limit && (!from || order(m, from) > 0)) rows.push(m);
    }
    return { ...pageOf(rows, input.limit, (m) => ({ sort: spec, value: keyOf(m, spec), id: m.id })), total: { total, totalCapped: false } };
  }
  const page = await plainPage(db, input, spec, input.limit, cursor, nameLikeFilter(db, search), undefined);
  // A first page that is also the last holds every match: its length is the exact total.
  if (!cursor && !page.next) return { ...page, total: { total: page.ids.length, totalCapped: false } };
  if (status === undefined) return { ...page, total: { total: Math.min(matched, cap), totalCapped: matched > cap } };
  // Exact when the search matches at most the cap, else a lower bound: counting the rest would read every match.
  const ofStatus = await index.ofStatus(search, status, cap);
  return { ...page, total: { total: Math.min(ofStatus, cap), totalCapped: ofStatus > cap || matched > cap } };
}

type Total = { total: number; totalCapped: boolean };

/** Counts up to `cap` + 1 rows of `from` (an index range, or the matches of a search). */
async function countCapped(db: Executor, from: RawBuilder<unknown>, cap = PRODUCT_COUNT_CAP): Promise<Total> {
  const row = await sql<{ n: number | string }>`select count(*) as n from (select 1 as one ${from} limit ${cap + 1}) t`.execute(db);
  const n = Number(row.rows[0]?.n ?? 0);
  return { total: Math.min(n, cap), totalCapped: n > cap };
}

/** A list's total without a search across vendors: the counters without a vendor, else the vendor's index range counted up to the cap. */
async function totalOf(db: Executor, filters: ProductsFilters, nameFilter: RawBuilder<unknown>, vendors: string[] | undefined): Promise<Total> {
  if (vendors?.length === 0) return { total: 0, totalCapped: false };
  if (vendors !== undefined) return countCapped(db, sql`from products p where p.vendor_id in (${sql.join(vendors)}) ${filterSql({ status: filters.status })} ${nameFilter}`);
  const c = await readCounters(db);
  const total = c[COUNTERS.productsTotal];
  const byStatus: Record<ProductStatus, number> = {
    active: c[COUNTERS.productsListed],
    hidden: c[COUNTERS.productsHidden],
    pending_review: c[COUNTERS.productsPendingReview],
    rejected: c[COUNTERS.productsRejected],
    draft: total - c[COUNTERS.productsListed] - c[COUNTERS.productsHidden] - c[COUNTERS.productsPendingReview] - c[COUNTERS.productsRejected],
  };
  return { total: filters.status ? byStatus[filters.status] : total, totalCapped: false };
}

/**
 * The name filter of an index walk: a search within one vendor's products (the vendor's own index
 * ranges: a vendor has few products next to the catalogue's million, so it sorts and counts like
 * any list), or a broad search across vendors walked in its sort's order. Case is ignored for
 * ASCII letters (SQLite's LIKE) or by lower() (PostgreSQL, as its trigram index).
 */
const nameLikeFilter = (db: Executor, search: string): RawBuilder<unknown> => (isPostgres(db) ? sql` and ${pgMatch(search)}` : sql` and p.name like ${`%${escapeLike(search)}%`} escape '\\'`);

/**
 * The vendors a list is narrowed to (undefined: all): the one asked for, and with `overLimit` the
 * vendors over the product limit (vendor_totals_listed_idx, the OVER_LIMIT_FILTER_VENDORS with the
 * most listed products), both when both are given.
 */
async function vendorScope(db: Executor, filters: ProductsFilters): Promise<string[] | undefined> {
  if (!filters.overLimit) return filters.vendorId === undefined ? undefined : [filters.vendorId];
  const over = (await readVendorsOverLimit(db, await readProductLimit(db), OVER_LIMIT_FILTER_VENDORS)).map((v) => v.id);
  return filters.vendorId === undefined ? over : over.filter((id) => id === filters.vendorId);
}

/** One page of products, searched, filtered and sorted, with its next cursor (and the total when asked). */
export async function listProductRows(
  db: Executor,
  input: ListInput,
  withTotal: boolean,
  index: SearchIndexReads = readSearchIndex(db),
): Promise<{ products: ProductListItem[]; next: string | null; total?: Total }> {
  const spec = sortSpec(input.sort);
  const cursor = input.after;
  const search = input.search?.trim() ?? "";
  let page: ProductRowsPage;
  let total: Promise<Total | undefined>;
  // A product's storefront id (docs/integration.md) finds that product, when it passes the filters.
  if (search !== "" && cursor === undefined) {
    const byStorefrontId = await fetchStorefrontMatch(db, search, input);
    if (byStorefrontId) return { products: [byStorefrontId], next: null, ...(withTotal ? { total: { total: 1, totalCapped: false } } : {}) };
  }
  const vendors = await vendorScope(db, input);
  if (search !== "" && vendors === undefined) {
    const found = await searchPage(db, input, search, spec, cursor, index);
    page = found;
    total = Promise.resolve(found.total);
  } else {
    const nameFilter = search === "" ? sql`` : nameLikeFilter(db, search);
    page = await plainPage(db, input, spec, input.limit, cursor, nameFilter, vendors);
    total = withTotal ? totalOf(db, input, nameFilter, vendors) : Promise.resolve(undefined);
  }
  const [products, counted] = await Promise.all([fetchListItems(db, page.ids), total]);
  return { products, next: page.next ? encodeProductCursor(page.next) : null, ...(withTotal && counted ? { total: counted } : {}) };
}

/** The product whose storefront id is exactly `search` (products_external_idx: one probe), if it passes the list's filters. */
async function fetchStorefrontMatch(db: Executor, search: string, filters: ProductsFilters): Promise<ProductListItem | undefined> {
  const row = await db.selectFrom("products").select("id").where("external_id", "=", search).executeTakeFirst();
  if (!row) return undefined;
  const [item] = await fetchListItems(db, [row.id]);
  if (!item || (filters.vendorId !== undefined && item.vendorId !== filters.vendorId) || (filters.status !== undefined && item.status !== filters.status)) return undefined;
  if (filters.overLimit && !(await vendorScope(db, filters))?.includes(item.vendorId)) return undefined;
  return item;
}

type ProductWithVendor = Product & { vendor_name: string };

export function toListItem(p: ProductWithVendor): ProductListItem {
  return {
    id: p.id,
    name: p.name,
    vendorId: p.vendor_id,
    vendorName: p.vendor_name,
    price: cents(p.price_cents),
    inventory: Number(p.inventory),
    sold: Number(p.units_sold),
    revenue: cents(p.revenue_cents),
    status: toApiStatus(p.status),
    createdAt: p.created_at,
  };
}

/** The page's rows by primary key (a deferred join: the walks above read indexes only), in the page's order. */
async function fetchListItems(db: Executor, ids: string[]): Promise<ProductListItem[]> {
  if (ids.length === 0) return [];
  const rows = await selectProductsWithVendor(db).where("products.id", "in", ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [toListItem(r)] : [];
  });
}

const selectProductsWithVendor = (db: Executor) => db.selectFrom("products").innerJoin("vendors", "vendors.id", "products.vendor_id").selectAll("products").select("vendors.name as vendor_name");

export async function findProductWithVendor(db: Executor, id: string): Promise<ProductWithVendor | undefined> {
  return selectProductsWithVendor(db).where("products.id", "=", id).executeTakeFirst();
}

/** The product's vendor as the detail shows it: the row and its listed products (primary-key reads). */
export async function readVendorOfProduct(db: Executor, vendorId: string) {
  const [vendor, totals] = await Promise.all([
    db.selectFrom("vendors").select(["id", "name", "slug", "is_active"]).where("id", "=", vendorId).executeTakeFirstOrThrow(),
    db.selectFrom("vendor_totals").select("listed_products").where("vendor_id", "=", vendorId).executeTakeFirst(),
  ]);
  return { ...vendor, listed_products: Number(totals?.listed_products ?? 0) };
}

/** The most recent moderation entries of a product, newest first (product_moderations_product_idx). */
export async function readModerationHistory(db: Executor, productId: string, limit: number): Promise<ProductModerationEntry[]> {
  const rows = await db.selectFrom("product_moderations").selectAll().where("product_id", "=", productId).orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    infringement: r.infringement === 1,
    fromStatus: toApiStatus(r.from_status),
    toStatus: toApiStatus(r.to_status),
    reason: r.reason,
    actorEmail: r.actor_email,
    createdAt: r.created_at,
  }));
}

/** Products created on the days from `fromDay` (YYYY-MM-DD) on: at most seven rows of daily_platform_totals. */
export async function readProductsAddedSince(db: Executor, fromDay: string): Promise<number> {
  const row = await db
    .selectFrom("daily_platform_totals")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("new_products"), eb.lit(0)).as("n"))
    .where("day", ">=", fromDay)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The vendors with the most listed products above `limit`, most first (vendor_totals_listed_idx walked backwards). */
export async function readVendorsOverLimit(db: Executor, limit: number, max: number): Promise<Array<{ id: string; name: string; listedProducts: number }>> {
  const rows = await db
    .selectFrom("vendor_totals")
    .innerJoin("vendors", "vendors.id", "vendor_totals.vendor_id")
    .select(["vendors.id", "vendors.name", "vendor_totals.listed_products"])
    .where("vendor_totals.listed_products", ">", limit)
    .orderBy("vendor_totals.listed_products", "desc")
    .orderBy("vendor_totals.vendor_id", "desc")
    .limit(max)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, listedProducts: Number(r.listed_products) }));
}

/** Who to e-mail about these vendors' listings (primary-key reads, in chunks of 500). */
export async function findVendorContacts(db: Executor, vendorIds: readonly string[]): Promise<Array<{ id: string; owner_name: string; email: string }>> {
  const out: Array<{ id: string; owner_name: string; email: string }> = [];
  for (let i = 0; i < vendorIds.length; i += 500) {
    out.push(
      ...(await db
        .selectFrom("vendors")
        .select(["id", "owner_name", "email"])
        .where("id", "in", vendorIds.slice(i, i + 500))
        .orderBy("id")
        .execute()),
    );
  }
  return out;
}
