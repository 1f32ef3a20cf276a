import type { Insertable, Kysely } from "kysely";
import type { Database } from "../platform/db/connect.ts";

/** What the bulk loader needs of a database: the raw SQLite handle or Kysely (not its caches). */
export type BulkTarget = Pick<Database, "kind" | "db" | "sqlite">;
import type { DB } from "../platform/db/schema.ts";

/**
 * Buffered bulk writer for the large-data generator. On SQLite it runs prepared statements
 * straight on better-sqlite3 inside one transaction per batch (no query building per row); on
 * PostgreSQL it sends multi-row INSERTs through Kysely. Tables flush in foreign-key order.
 */
export type SinkTable =
  | "vendors"
  | "vendor_totals"
  | "payout_accounts"
  | "products"
  | "product_moderations"
  | "orders"
  | "subscriptions"
  | "store_visits"
  | "daily_vendor_totals"
  | "product_sales_days"
  | "product_period_totals"
  | "vendor_period_totals"
  | "payouts"
  | "error_logs"
  | "audit_log";

const FLUSH_ORDER: readonly SinkTable[] = [
  "vendors",
  "vendor_totals",
  "payout_accounts",
  "products",
  "product_moderations",
  "orders",
  "subscriptions",
  "store_visits",
  "daily_vendor_totals",
  "product_sales_days",
  "product_period_totals",
  "vendor_period_totals",
  "payouts",
  "error_logs",
  "audit_log",
];

export interface RowSink {
  add<T extends SinkTable>(table: T, row: Insertable<DB[T]>): Promise<void>;
  flush(): Promise<void>;
  /** Rows written so far. */
  readonly written: number;
}

export function createRowSink(database: BulkTarget, batchRows = database.kind === "sqlite" ? 20_000 : 5_000): RowSink {
  const buffers = new Map<SinkTable, Record<string, unknown>[]>(FLUSH_ORDER.map((t) => [t, []]));
  let buffered = 0;
  let written = 0;
  const sqlite = database.sqlite;
  const statements = new Map<string, ReturnType<NonNullable<Database["sqlite"]>["prepare"]>>();

  const writeSqlite = sqlite
    ? sqlite.transaction((batches: [SinkTable, Record<string, unknown>[]][]) => {
        for (const [table, rows] of batches) {
          const first = rows[0];
          if (!first) continue;
          const columns = Object.keys(first);
          const key = `${table}:${columns.join(",")}`;
          let stmt = statements.get(key);
          if (!stmt) {
            stmt = sqlite.prepare(`insert into ${table} (${columns.join(", ")}) values (${columns.map((c) => `@${c}`).join(", ")})`);
            statements.set(key, stmt);
          }
          for (const row of rows) stmt.run(row);
        }
      })
    : undefined;

  const writePostgres = async (db: Kysely<DB>, table: SinkTable, rows: Record<string, unknown>[]) => {
    // ≤ 16 columns × 1,000 rows stays under PostgreSQL's 65,535 bind parameters.
    for (let i = 0; i < rows.length; i += 1000) {
      await db
        .insertInto(table)
        .values(rows.slice(i, i + 1000) as never)
        .execute();
    }
  };

  const flush = async () => {
    if (buffered === 0) return;
    const batches = FLUSH_ORDER.map((t) => [t, buffers.get(t) ?? []] as [SinkTable, Record<string, unknown>[]]);
    if (writeSqlite) writeSqlite(batches);
    else for (const [table, rows] of batches) if (rows.length > 0) await writePostgres(database.db, table, rows);
    written += buffered;
    buffered = 0;
    for (const t of FLUSH_ORDER) buffers.set(t, []);
  };

  return {
    async add(table, row) {
      buffers.get(table)?.push(row as Record<string, unknown>);
      buffered++;
      if (buffered >= batchRows) await flush();
    },
    flush,
    get written() {
      return written;
    },
  };
}
