import { type RawBuilder, SqliteAdapter, sql } from "kysely";
import type { OrderStatus, OrderStatusFilter } from "../../../contract/orders.ts";
import type { Executor } from "../../platform/db/executor.ts";

/**
 * The only place the Orders screen's SQL lives (docs/product.md "Orders"). A page walks one index
 * of migration 026 (or 001/023) from the cursor and stops after limit + 1 rows; what is sorted in
 * memory (a storefront order's lines, a buyer's orders or a date range sorted by amount) is read
 * through an index and counted up to a cap first (`readNarrowedKeys`).
 */

export interface OrderRowFilters {
  /** The buyer's e-mail, lower-cased as stored. */
  email?: string | undefined;
  /** The storefront's order id. */
  externalOrderId?: string | undefined;
  vendorId?: string | undefined;
  status?: OrderStatusFilter | undefined;
  /** ISO times: placed at or after `from`, before `to`. */
  from?: string | undefined;
  to?: string | undefined;
}

export interface OrderSortSpec {
  column: "created_at" | "gross_cents";
  descending: boolean;
}

/** The last row a page showed, in the sort's order. */
export interface OrderPosition {
  value: string | number;
  id: string;
}

export interface OrderRow {
  id: string;
  external_order_id: string | null;
  external_line_id: string | null;
  created_at: string;
  updated_at: string;
  status: OrderStatus;
  customer_email: string | null;
  vendor_id: string;
  vendor_name: string;
  product_name: string;
  quantity: number;
  gross_cents: number;
  fee_cents: number;
  fee_rate_basis_points: number;
  refunded_cents: number;
}

const ROW_COLUMNS = sql`o.id as id, o.external_order_id as external_order_id, o.external_line_id as external_line_id, o.created_at as created_at,
  o.updated_at as updated_at, o.status as status, o.customer_email as customer_email, o.vendor_id as vendor_id,
  o.product_name as product_name, o.quantity as quantity, o.gross_cents as gross_cents, o.fee_cents as fee_cents,
  o.fee_rate_basis_points as fee_rate_basis_points,
  (select coalesce(sum(r.amount_cents), 0) from order_refunds r where r.order_id = o.id) as refunded_cents`;

type OrderRowOnly = Omit<OrderRow, "vendor_name">;

/**
 * The artists' names of a page's rows, by primary key. Read apart from the walk: joined into it,
 * the planner may start from vendors and sort the orders it finds instead of walking an index.
 */
async function withVendorNames(db: Executor, rows: OrderRowOnly[]): Promise<OrderRow[]> {
  const ids = [...new Set(rows.map((r) => r.vendor_id))];
  const names = new Map<string, string>();
  if (ids.length > 0) for (const v of await db.selectFrom("vendors").select(["id", "name"]).where("id", "in", ids).execute()) names.set(v.id, v.name);
  return rows.map((r) => normalise({ ...r, vendor_name: names.get(r.vendor_id) ?? "" }));
}

/** PostgreSQL answers bigint sums and counts as text. */
function normalise(r: OrderRow): OrderRow {
  return {
    ...r,
    quantity: Number(r.quantity),
    gross_cents: Number(r.gross_cents),
    fee_cents: Number(r.fee_cents),
    fee_rate_basis_points: Number(r.fee_rate_basis_points),
    refunded_cents: Number(r.refunded_cents),
  };
}

/**
 * The orders table as alias `o`. 'Partly refunded' without a narrower filter names its partial
 * index on SQLite: without statistics (the panel runs no ANALYZE) SQLite prefers the
 * `(status, created_at, id)` index for `status = 'paid'` and walks every paid order to find the
 * few partly refunded ones (84 s at 5M orders with none). PostgreSQL picks the partial index from
 * its own statistics.
 */
function ordersTable(db: Executor, filters: OrderRowFilters): RawBuilder<unknown> {
  const narrower = filters.vendorId !== undefined || filters.email !== undefined || filters.externalOrderId !== undefined;
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  return sqlite && filters.status === "partially_refunded" && !narrower ? sql`orders o indexed by orders_part_refunded_idx` : sql`orders o`;
}

/** The filters as `and` conditions on alias `o`. */
function whereSql(filters: OrderRowFilters): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`1 = 1`];
  if (filters.email !== undefined) parts.push(sql`o.customer_email = ${filters.email}`);
  if (filters.externalOrderId !== undefined) parts.push(sql`o.external_order_id = ${filters.externalOrderId}`);
  if (filters.vendorId !== undefined) parts.push(sql`o.vendor_id = ${filters.vendorId}`);
  // With a narrower filter (an artist, a buyer, a storefront order) the status is checked on the
  // rows that one's index finds: written so no index can serve it, the planner never walks every
  // order of a status instead (without statistics SQLite ties the two indexes and may pick it).
  if (filters.status !== undefined) {
    const narrower = filters.vendorId !== undefined || filters.email !== undefined || filters.externalOrderId !== undefined;
    // 'Partly refunded' and 'Disputed' are the predicates of their partial indexes (migration 028), written as the index has them.
    if (filters.status === "partially_refunded") parts.push(narrower ? sql`(o.status || '') = 'paid' and o.refunded_cents + 0 > 0` : sql`o.status = 'paid' and o.refunded_cents > 0`);
    else if (filters.status === "disputed") parts.push(narrower ? sql`o.dispute_open + 0 = 1` : sql`o.dispute_open = 1`);
    else parts.push(narrower ? sql`(o.status || '') = ${filters.status}` : sql`o.status = ${filters.status}`);
  }
  if (filters.from !== undefined) parts.push(sql`o.created_at >= ${filters.from}`);
  if (filters.to !== undefined) parts.push(sql`o.created_at < ${filters.to}`);
  return sql.join(parts, sql` and `);
}

/**
 * Whether a page in this order can walk an index from the cursor. By date always: each filter's
 * index holds `created_at, id` after its equality columns (a storefront order's few lines aside).
 * By amount only without a date range or search: `(gross_cents, id)` after nothing, the status or
 * the artist (migration 026).
 */
export function walksAnIndex(filters: OrderRowFilters, spec: OrderSortSpec): boolean {
  if (filters.externalOrderId !== undefined) return false;
  if (spec.column === "created_at") return true;
  // Their partial indexes are in date order: by amount, the lines they hold are read and sorted.
  if (filters.status === "partially_refunded" || filters.status === "disputed") return false;
  return filters.email === undefined && filters.from === undefined && filters.to === undefined;
}

/**
 * One page walking the order's index from the cursor: limit + 1 rows read at most. The limit is
 * written into the statement (a validated whole number): SQLite plans a bound LIMIT as if every
 * row were wanted, and at 5M orders would rather sort the whole table than walk the index.
 */
export async function readWalkedPage(db: Executor, filters: OrderRowFilters, spec: OrderSortSpec, after: OrderPosition | undefined, limit: number): Promise<OrderRow[]> {
  const col = sql.ref(`o.${spec.column}`);
  const dir = sql.raw(spec.descending ? "desc" : "asc");
  const seek = after === undefined ? sql`` : sql` and (${col}, o.id) ${sql.raw(spec.descending ? "<" : ">")} (${after.value}, ${after.id})`;
  const rows = await sql<OrderRowOnly>`select ${ROW_COLUMNS} from ${ordersTable(db, filters)}
    where ${whereSql(filters)}${seek} order by ${col} ${dir}, o.id ${dir} limit ${sql.lit(limit + 1)}`.execute(db);
  return withVendorNames(db, rows.rows);
}

/** What sorting a narrowed set needs: the id and both sort keys. */
export interface NarrowedKey {
  id: string;
  created_at: string;
  gross_cents: number;
}

/**
 * The orders the filters narrow to through an index (a storefront order, a buyer, a date range
 * with its equality filters), up to `cap` + 1 of them, in no particular order, as their sort keys
 * only: the caller sorts them (or refuses the sort when there are more than `cap`) and reads the
 * page's rows by id (`readRowsByIds`).
 */
export async function readNarrowedKeys(db: Executor, filters: OrderRowFilters, cap: number): Promise<NarrowedKey[]> {
  const rows = await sql<NarrowedKey>`select o.id as id, o.created_at as created_at, o.gross_cents as gross_cents from ${ordersTable(db, filters)}
    where ${whereSql(filters)} limit ${sql.lit(cap + 1)}`.execute(db);
  return rows.rows.map((r) => ({ ...r, gross_cents: Number(r.gross_cents) }));
}

/** The rows of the given order lines (by primary key), in the order of `ids`. */
export async function readRowsByIds(db: Executor, ids: readonly string[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  const rows = await sql<OrderRowOnly>`select ${ROW_COLUMNS} from orders o where o.id in (${sql.join(ids)})`.execute(db);
  const byId = new Map((await withVendorNames(db, rows.rows)).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One order line by the panel's id, with its artist's name. */
export async function findOrderRow(db: Executor, id: string): Promise<OrderRow | undefined> {
  const rows = await sql<OrderRowOnly>`select ${ROW_COLUMNS} from orders o where o.id = ${id}`.execute(db);
  return (await withVendorNames(db, rows.rows))[0];
}

/** The lines of one storefront order (any artist), through its index (migration 023), in line order. */
export async function readOrderLines(db: Executor, externalOrderId: string): Promise<OrderRow[]> {
  const rows = await sql<OrderRowOnly>`select ${ROW_COLUMNS} from orders o
    where o.external_order_id = ${externalOrderId} order by o.external_line_id, o.id`.execute(db);
  return withVendorNames(db, rows.rows);
}

export async function readVendorCard(db: Executor, vendorId: string): Promise<{ id: string; name: string; slug: string; is_active: number } | undefined> {
  const row = await db.selectFrom("vendors").select(["id", "name", "slug", "is_active"]).where("id", "=", vendorId).executeTakeFirst();
  return row === undefined ? undefined : { ...row, is_active: Number(row.is_active) };
}
