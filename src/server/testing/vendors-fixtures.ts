import { sql } from "kysely";
import type { Database } from "../platform/db/connect.ts";
import { placeOrder, refundOrder } from "../domain/ledger/orders.ts";
import { createProduct } from "../domain/ledger/products.ts";
import { startSubscription } from "../domain/ledger/subscriptions.ts";
import { createVendor } from "../domain/ledger/vendors.ts";
import { recordVisits } from "../domain/ledger/visits.ts";
import type { TestContext } from "./test-app.ts";

/** Test-only: a vendor with an owner account, products, paid and refunded orders, visits and a subscription. */
export async function createFullVendor(ctx: TestContext, input: { name: string; slug: string; email: string; ownerName?: string; isInternal?: boolean; isActive?: boolean; joinedAt?: string }) {
  const owner = await ctx.createUser({ email: input.email });
  const { db } = ctx.database;
  const clock = ctx.clock;
  const vendor = await createVendor(
    db,
    {
      name: input.name,
      ownerName: input.ownerName ?? "Owner Person",
      email: input.email,
      slug: input.slug,
      ownerUserId: owner.id,
      isInternal: input.isInternal ?? false,
      isActive: input.isActive ?? true,
      joinedAt: input.joinedAt ?? "2026-06-01T10:00:00.000Z",
      customCss: "@import url(http://evil.example/x.css); .a { color: red; }",
      customHtml: '<p onclick="x()">Hi</p><script>alert(1)</script>',
    },
    clock,
  );
  const p1 = await createProduct(db, { vendorId: vendor.id, name: `${input.name} print`, priceCents: 2500, inventory: 4, createdAt: "2026-07-01T00:00:00.000Z" }, clock);
  await createProduct(db, { vendorId: vendor.id, name: `${input.name} sketch`, priceCents: 900, status: "draft", createdAt: "2026-07-02T00:00:00.000Z" }, clock);
  await placeOrder(db, { vendorId: vendor.id, productId: p1.id, quantity: 2, feeRateBasisPoints: 150, createdAt: "2026-08-01T12:00:00.000Z" }, clock);
  const refunded = await placeOrder(db, { vendorId: vendor.id, productId: p1.id, quantity: 1, feeRateBasisPoints: 150, createdAt: "2026-08-02T12:00:00.000Z" }, clock);
  await refundOrder(db, refunded.id, clock);
  await recordVisits(db, vendor.id, "2026-08-01", 40);
  await recordVisits(db, vendor.id, "2026-08-02", 10);
  await startSubscription(db, { vendorId: vendor.id, plan: "artist", monthlyFeeCents: 1999, startedAt: "2026-06-01T10:00:00.000Z" }, clock);
  return { vendor, owner };
}

/** Every table of the test database (including SQLite's FTS shadow tables). */
export async function tableNames(database: Database): Promise<string[]> {
  if (database.kind === "sqlite") {
    const r = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(database.db);
    return r.rows.map((x) => x.name);
  }
  const r = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(database.db);
  return r.rows.map((x) => x.name);
}

/** Every row of every table, each table's rows sorted, as comparable JSON. */
export async function snapshotAllRows(database: Database, skip: readonly string[] = []): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await tableNames(database)) {
    if (skip.includes(table)) continue;
    const r = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    out[table] = r.rows.map((row) => JSON.stringify(row, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v))).sort();
  }
  return out;
}

export async function countAllRows(database: Database): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of await tableNames(database)) {
    const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(database.db);
    out[table] = Number(r.rows[0]?.n ?? 0);
  }
  return out;
}
