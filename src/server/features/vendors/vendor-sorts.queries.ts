import { PostgresAdapter, type RawBuilder, sql } from "kysely";
import type { AdminVendorRow, AdminVendorsQuery, VendorSort, VendorsFilters } from "../../../contract/vendors.ts";
import type { CursorPart } from "../../platform/http/keyset-cursor.ts";
import type { Executor } from "../../platform/db/executor.ts";
import type { VendorApprovalStatus } from "../../platform/db/schema.ts";
import { fetchAdminRows, postgresSearchMatch, sqliteSearchMatch, statusCondition } from "./vendors.queries.ts";

/**
 * The vendor list in the order of `sort` (docs/product.md §4.1), a keyset page at a time: each order
 * walks one index from the last row shown (migration 016), so any page costs the same however deep.
 * - name and joined: vendors (name, id) / (joined_at, id), per status filter (flag, …, id);
 * - products and revenue: vendor_totals (listed_products | gross_cents, vendor_id), per status
 *   filter (flag, …, vendor_id) on the flags vendor_totals copies from vendors (kept by triggers).
 * A search orders its matches (at most VENDOR_SEARCH_SORT_CAP of them, found by the trigram index).
 */

type SortKey = "name" | "joined" | "products" | "revenue";

interface SortColumn {
  table: "vendors" | "vendor_totals";
  column: string;
  idColumn: string;
  /** The same order in a search, over vendors `v` joined to vendor_totals `t`. */
  joined: string;
  part: CursorPart;
}

const SORT_COLUMNS: Record<SortKey, SortColumn> = {
  name: { table: "vendors", column: "name", idColumn: "id", joined: "v.name", part: "string" },
  joined: { table: "vendors", column: "joined_at", idColumn: "id", joined: "v.joined_at", part: "time" },
  products: { table: "vendor_totals", column: "listed_products", idColumn: "vendor_id", joined: "t.listed_products", part: "number" },
  revenue: { table: "vendor_totals", column: "gross_cents", idColumn: "vendor_id", joined: "t.gross_cents", part: "number" },
};

export function sortOf(sort: VendorSort): { key: SortKey; descending: boolean; column: SortColumn } {
  const descending = sort.startsWith("-");
  const key = (descending ? sort.slice(1) : sort) as SortKey;
  return { key, descending, column: SORT_COLUMNS[key] };
}

/** The position after which a page starts: the last row's sort value and id. */
export interface VendorPosition {
  value: string | number;
  id: string;
}

const flagCondition = (status: AdminVendorsQuery["status"]): RawBuilder<unknown> =>
  status === "active" ? sql`and is_active = 1` : status === "inactive" ? sql`and is_active = 0` : status === "internal" ? sql`and is_internal = 1` : sql``;

/** The statement of sortedVendorKeys (exported so a test can check its query plan). */
export function sortedVendorKeysQuery(sort: VendorSort, status: AdminVendorsQuery["status"], after: VendorPosition | undefined, limit: number) {
  const { descending, column } = sortOf(sort);
  const value = sql.ref(column.column);
  const id = sql.ref(column.idColumn);
  const direction = sql.raw(descending ? "desc" : "asc");
  const keyset = after ? sql`and (${value}, ${id}) ${sql.raw(descending ? "<" : ">")} (${after.value}, ${after.id})` : sql``;
  return sql<{ id: string; value: string | number }>`select ${id} as id, ${value} as value from ${sql.table(column.table)}
    where 1 = 1 ${flagCondition(status)} ${keyset}
    order by ${value} ${direction}, ${id} ${direction} limit ${limit}`;
}

/** Ids and sort values of up to `limit` vendors after `after`, without a search: one index range. */
export async function sortedVendorKeys(
  db: Executor,
  sort: VendorSort,
  status: AdminVendorsQuery["status"],
  after: VendorPosition | undefined,
  limit: number,
): Promise<Array<{ id: string; value: string | number }>> {
  const rows = await sortedVendorKeysQuery(sort, status, after, limit).execute(db);
  const { column } = sortOf(sort);
  return rows.rows.map((r) => ({ id: r.id, value: column.part === "number" ? Number(r.value) : r.value }));
}

/** The same for a search's matches (`ids`, already filtered by status): ordered among themselves. */
export async function sortedMatchKeys(db: Executor, sort: VendorSort, ids: string[], after: VendorPosition | undefined, limit: number): Promise<Array<{ id: string; value: string | number }>> {
  if (ids.length === 0) return [];
  const { descending, column } = sortOf(sort);
  const value = sql.raw(column.joined);
  const direction = sql.raw(descending ? "desc" : "asc");
  const keyset = after ? sql`and (${value}, v.id) ${sql.raw(descending ? "<" : ">")} (${after.value}, ${after.id})` : sql``;
  const rows = await sql<{ id: string; value: string | number }>`select v.id as id, ${value} as value
    from vendors v join vendor_totals t on t.vendor_id = v.id
    where v.id in (${sql.join(ids)}) ${keyset}
    order by ${value} ${direction}, v.id ${direction} limit ${limit}`.execute(db);
  return rows.rows.map((r) => ({ id: r.id, value: column.part === "number" ? Number(r.value) : r.value }));
}

/** Where the CSV export of the list is: the last row's position in its walk. */
export type VendorExportCursor = { joinedAt: string; id: string } | { key: number };

/**
 * One page of the CSV export (the list's search and status), newest first: the (flag, joined_at, id)
 * indexes without a search; with one, the trigram table's newest keys (SQLite) or the pg_trgm
 * index's matches newest joined first (PostgreSQL), from the last row on.
 */
export async function exportVendorsPage(
  db: Executor,
  filters: VendorsFilters,
  after: VendorExportCursor | undefined,
  limit: number,
): Promise<{ rows: AdminVendorRow[]; next: VendorExportCursor | undefined }> {
  const search = filters.search?.trim() ?? "";
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (search !== "" && !postgres) {
    const before = after && "key" in after ? sql`and vendor_search.rowid < ${after.key}` : sql``;
    const found = await sql<{ key: number; id: string }>`select vendor_search.rowid as key, k.vendor_id as id
      from vendor_search join vendor_search_keys k on k.key = vendor_search.rowid join vendors v on v.id = k.vendor_id
      where ${sqliteSearchMatch(search)} ${statusCondition(filters.status, "v")} ${before}
      order by vendor_search.rowid desc limit ${limit}`.execute(db);
    const last = found.rows.at(-1);
    return {
      rows: await fetchAdminRows(
        db,
        found.rows.map((r) => r.id),
      ),
      next: found.rows.length === limit && last ? { key: Number(last.key) } : undefined,
    };
  }
  const position = after && "joinedAt" in after ? after : undefined;
  const before = position ? sql`and (v.joined_at, v.id) < (${position.joinedAt}, ${position.id})` : sql``;
  const match = search !== "" ? sql`and ${postgresSearchMatch(search)}` : sql``;
  const found = await sql<{ id: string; joined_at: string }>`select v.id as id, v.joined_at as joined_at from vendors v
    where 1 = 1 ${statusCondition(filters.status, "v")} ${match} ${before}
    order by v.joined_at desc, v.id desc limit ${limit}`.execute(db);
  const last = found.rows.at(-1);
  return {
    rows: await fetchAdminRows(
      db,
      found.rows.map((r) => r.id),
    ),
    next: found.rows.length === limit && last ? { joinedAt: last.joined_at, id: last.id } : undefined,
  };
}

/** The vendors of `ids` that exist, with what a status change needs. */
export async function findVendorsById(db: Executor, ids: string[]): Promise<Array<{ id: string; name: string; is_active: number; approval_status: VendorApprovalStatus }>> {
  if (ids.length === 0) return [];
  return db.selectFrom("vendors").select(["id", "name", "is_active", "approval_status"]).where("id", "in", ids).execute();
}
