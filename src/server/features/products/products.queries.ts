import { PostgresAdapter, type RawBuilder, sql } from "kysely";
import {
  MIN_PRODUCT_SEARCH_LENGTH,
  PRODUCT_COUNT_CAP,
  PRODUCT_SEARCH_SORT_CAP,
  type ProductListItem,
  type ProductModerationEntry,
  type ProductSort,
  type ProductStatus,
  type ProductsFilters,
} from "../../../contract/products.ts";
import type { Executor } from "../../platform/db/executor.ts";
import type { Product } from "../../platform/db/schema.ts";
import { invalidField } from "../../platform/http/http-error.ts";
import { COUNTERS, readCounters } from "../../domain/ledger/counters.ts";
import { decodeProductCursor, encodeProductCursor, type ProductCursor } from "./products-cursor.ts";

/**
 * The only place product-catalogue SQL lives (docs/product.md §16). Nothing here scans products:
 * a page walks one `(status, K, id)` or `(vendor_id, status, K, id)` index per status (migration
 * 013) from the cursor and merges the walks; a search reads the trigram index; totals come from
 * the ledger's counters or an index range counted up to PRODUCT_COUNT_CAP + 1.
 */

type DbStatus = Product["status"];
const STATUSES: readonly DbStatus[] = ["listed", "draft", "hidden"];

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
  cursor?: string | undefined;
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
async function plainPage(db: Executor, filters: ProductsFilters, spec: SortSpec, limit: number, cursor: ProductCursor | undefined): Promise<ProductRowsPage> {
  const after = cursor?.mode === "sorted" ? cursor : undefined;
  const statuses = filters.status ? [toDbStatus(filters.status)] : STATUSES;
  const walk = (status: DbStatus) =>
    sql`select p.id as id, ${sql.ref(`p.${spec.column}`)} as k from products p where p.status = ${status}
      ${filters.vendorId !== undefined ? sql`and p.vendor_id = ${filters.vendorId}` : sql``}
      ${afterSql(spec, after)} ${orderSql(spec, "p")} limit ${limit + 1}`;
  const merged =
    statuses.length === 1
      ? walk(statuses[0]!)
      : sql`select id, k from (${sql.join(
          statuses.map((s, i) => sql`select id, k from (${walk(s)}) ${sql.id(`w${i}`)}`),
          sql` union all `,
        )}) merged ${orderSql({ ...spec, column: "k" as SortSpec["column"] })} limit ${limit + 1}`;
  const rows = (await merged.execute(db)).rows as Array<{ id: string; k: string | number }>;
  return pageOf(rows, limit, (r) => ({ mode: "sorted", sort: spec, value: r.k, id: r.id }));
}

function pageOf<R extends { id: string }>(rows: R[], limit: number, cursorOf: (row: R) => ProductCursor): ProductRowsPage {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { ids: page.map((r) => r.id), next: rows.length > limit && last ? cursorOf(last) : null };
}

/** Product ids of the first PRODUCT_SEARCH_SORT_CAP + 1 matches of a search (either database's trigram index). */
async function probeMatches(db: Executor, search: string): Promise<string[]> {
  if (isPostgres(db)) {
    const rows = await sql<{ id: string }>`select id from products where name_search like ${`%${escapeLike(search.toLowerCase())}%`} escape '\\'
      limit ${PRODUCT_SEARCH_SORT_CAP + 1}`.execute(db);
    return rows.rows.map((r) => r.id);
  }
  const rows = await sql<{ id: string }>`select k.product_id as id from product_search s join product_search_keys k on k.key = s.rowid
    where ${ftsMatch(search)} limit ${PRODUCT_SEARCH_SORT_CAP + 1}`.execute(db);
  return rows.rows.map((r) => r.id);
}

/** A quoted FTS5 phrase is matched literally: no query syntax can be injected through it. */
const ftsMatch = (search: string) => sql`product_search match ${`"${search.replace(/"/g, '""')}"`}`;

/**
 * One page of a search. A search matching at most PRODUCT_SEARCH_SORT_CAP products is sorted like
 * any list (over those ids only). A broader one walks the trigram index newest first (SQLite: by
 * search key, the order products were added; PostgreSQL: created_at), and cannot be sorted otherwise.
 */
async function searchPage(db: Executor, input: ListInput, search: string, spec: SortSpec, cursor: ProductCursor | undefined): Promise<ProductRowsPage & { matchIds: string[] | null }> {
  let matchIds: string[] | null = null;
  if (cursor?.mode !== "walk") {
    const probe = await probeMatches(db, search);
    if (probe.length <= PRODUCT_SEARCH_SORT_CAP) matchIds = probe;
    else if (cursor?.mode === "sorted") throw invalidField("cursor", "the search now matches more products than it did: start again from the first page");
  }
  if (matchIds !== null) {
    if (matchIds.length === 0) return { ids: [], next: null, matchIds };
    const after = cursor?.mode === "sorted" ? cursor : undefined;
    const rows = await sql<{ id: string; k: string | number }>`select p.id as id, ${sql.ref(`p.${spec.column}`)} as k from products p
      where p.id in (${sql.join(matchIds)}) ${filterSql(input)} ${afterSql(spec, after)} ${orderSql(spec, "p")} limit ${input.limit + 1}`.execute(db);
    return { ...pageOf(rows.rows, input.limit, (r) => ({ mode: "sorted", sort: spec, value: r.k, id: r.id })), matchIds };
  }
  if (spec.column !== "created_at" || !spec.descending) {
    throw invalidField("sort", `a search matching more than ${PRODUCT_SEARCH_SORT_CAP.toLocaleString("en-US")} products can only be sorted by newest: refine the search`);
  }
  if (isPostgres(db)) {
    const walkAfter = cursor?.mode === "walk" && cursor.value !== undefined ? { value: cursor.value, id: cursor.id ?? "" } : undefined;
    const rows = await sql<{ id: string; k: string }>`select p.id as id, p.created_at as k from products p
      where p.name_search like ${`%${escapeLike(search.toLowerCase())}%`} escape '\\' ${filterSql(input)} ${afterSql(spec, walkAfter)}
      order by p.created_at desc, p.id desc limit ${input.limit + 1}`.execute(db);
    return { ...pageOf(rows.rows, input.limit, (r) => ({ mode: "walk", value: r.k, id: r.id })), matchIds: null };
  }
  const beforeKey = cursor?.mode === "walk" && cursor.key !== undefined ? sql` and s.rowid < ${cursor.key}` : sql``;
  const rows = await sql<{ id: string; key: number }>`select p.id as id, s.rowid as key from product_search s
    join product_search_keys k on k.key = s.rowid join products p on p.id = k.product_id
    where ${ftsMatch(search)} ${filterSql(input)} ${beforeKey} order by s.rowid desc limit ${input.limit + 1}`.execute(db);
  return { ...pageOf(rows.rows, input.limit, (r) => ({ mode: "walk", key: Number(r.key) })), matchIds: null };
}

/** Counts up to PRODUCT_COUNT_CAP + 1 rows of `from` (an index range or the trigram matches). */
async function countCapped(db: Executor, from: RawBuilder<unknown>): Promise<{ total: number; totalCapped: boolean }> {
  const row = await sql<{ n: number | string }>`select count(*) as n from (select 1 as one ${from} limit ${PRODUCT_COUNT_CAP + 1}) t`.execute(db);
  const n = Number(row.rows[0]?.n ?? 0);
  return { total: Math.min(n, PRODUCT_COUNT_CAP), totalCapped: n > PRODUCT_COUNT_CAP };
}

/** The matching total: counters without a vendor or search, else an index range or the matches counted up to the cap. */
async function totalOf(db: Executor, filters: ProductsFilters, search: string, matchIds: string[] | null): Promise<{ total: number; totalCapped: boolean }> {
  if (search !== "") {
    if (matchIds !== null) {
      if (matchIds.length === 0) return { total: 0, totalCapped: false };
      return countCapped(db, sql`from products p where p.id in (${sql.join(matchIds)}) ${filterSql(filters)}`);
    }
    if (isPostgres(db)) return countCapped(db, sql`from products p where p.name_search like ${`%${escapeLike(search.toLowerCase())}%`} escape '\\' ${filterSql(filters)}`);
    if (filters.vendorId === undefined && filters.status === undefined) return countCapped(db, sql`from product_search where ${ftsMatch(search)}`);
    return countCapped(db, sql`from product_search s join product_search_keys k on k.key = s.rowid join products p on p.id = k.product_id where ${ftsMatch(search)} ${filterSql(filters)}`);
  }
  if (filters.vendorId !== undefined) return countCapped(db, sql`from products p where p.vendor_id = ${filters.vendorId} ${filterSql({ status: filters.status })}`);
  const c = await readCounters(db);
  const total = c[COUNTERS.productsTotal];
  const byStatus: Record<ProductStatus, number> = {
    active: c[COUNTERS.productsListed],
    hidden: c[COUNTERS.productsHidden],
    draft: total - c[COUNTERS.productsListed] - c[COUNTERS.productsHidden],
  };
  return { total: filters.status ? byStatus[filters.status] : total, totalCapped: false };
}

/** One page of products, searched, filtered and sorted, with its next cursor (and the total when asked). */
export async function listProductRows(db: Executor, input: ListInput, withTotal: boolean): Promise<{ products: ProductListItem[]; next: string | null; total?: { total: number; totalCapped: boolean } }> {
  const spec = sortSpec(input.sort);
  const cursor = input.cursor === undefined ? undefined : decodeProductCursor(input.cursor, spec);
  const search = input.search?.trim() ?? "";
  // The contract refuses shorter texts; this guards any other caller (no index could serve them).
  if (search !== "" && [...search].length < MIN_PRODUCT_SEARCH_LENGTH) throw invalidField("search", `must be at least ${MIN_PRODUCT_SEARCH_LENGTH} characters`);
  const page = search === "" ? { ...(await plainPage(db, input, spec, input.limit, cursor)), matchIds: null } : await searchPage(db, input, search, spec, cursor);
  const [products, total] = await Promise.all([fetchListItems(db, page.ids), withTotal ? totalOf(db, input, search, page.matchIds) : Promise.resolve(undefined)]);
  return { products, next: page.next ? encodeProductCursor(page.next) : null, ...(total ? { total } : {}) };
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

const selectProductsWithVendor = (db: Executor) =>
  db.selectFrom("products").innerJoin("vendors", "vendors.id", "products.vendor_id").selectAll("products").select("vendors.name as vendor_name");

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
  const rows = await db
    .selectFrom("product_moderations")
    .selectAll()
    .where("product_id", "=", productId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
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
