import { Kysely, SqliteDialect } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollPeriodWindows } from "../../domain/ledger/period-totals.ts";
import type { DB } from "../../platform/db/schema.ts";
import { buildPlatformFixture, FIXTURE_NOW } from "../../testing/platform-figures-fixture.ts";
import { createTestContext, type TestContext } from "../../testing/test-app.ts";
import { selectTopProducts, selectTopVendors } from "../analytics/top-lists.queries.ts";
import { readAttention } from "./attention.providers.ts";

/**
 * The top lists and the "needs attention" counts never scan (docs/product.md §12.3, §18): every
 * statement is captured and its EXPLAIN QUERY PLAN checked, with the planner given the statistics
 * of a large platform. A top list walks its index in order (no sort of the period totals).
 */
const LARGE_ROWS: Record<string, number> = {
  orders: 5_000_000,
  products: 1_000_000,
  vendors: 50_000,
  product_period_totals: 1_500_000,
  vendor_period_totals: 120_000,
  product_sales_days: 4_000_000,
  payouts: 400_000,
  error_logs: 1_000_000,
  error_log_hours: 20_000,
};

describe("top lists and attention query plans (sqlite)", () => {
  let ctx: TestContext;
  const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];

  beforeAll(async () => {
    ctx = await createTestContext("sqlite", { now: FIXTURE_NOW });
    await buildPlatformFixture(ctx.database.db, ctx.clock);
    await rollPeriodWindows(ctx.database.db, FIXTURE_NOW.slice(0, 10));
    const sqlite = ctx.database.sqlite!;
    sqlite.exec("ANALYZE");
    const rows = sqlite.prepare("select tbl, idx, stat from sqlite_stat1").all() as Array<{ tbl: string; idx: string | null; stat: string }>;
    const update = sqlite.prepare("update sqlite_stat1 set stat = ? where tbl = ? and idx is ?");
    for (const r of rows) {
      const n = LARGE_ROWS[r.tbl];
      if (n !== undefined) update.run([String(n), ...r.stat.split(" ").slice(1)].join(" "), r.tbl, r.idx);
    }
    sqlite.exec("ANALYZE sqlite_schema");
    const logged = new Kysely<DB>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => {
        if (event.level === "query") statements.push({ sql: event.query.sql, parameters: event.query.parameters });
      },
    });
    for (const days of [7, 30, 90]) {
      await selectTopProducts(logged, days, 10);
      await selectTopVendors(logged, days, 10);
    }
    await readAttention(logged, ctx.clock.now());
  });
  afterAll(async () => {
    await ctx.close();
  });

  const plan = (s: { sql: string; parameters: readonly unknown[] }) =>
    (ctx.database.sqlite!.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.parameters) as Array<{ detail: string }>).map((r) => r.detail);

  it("captured the statements of the top lists and of every attention provider", () => {
    for (const t of [
      "product_period_totals",
      "vendor_period_totals",
      "payout_balance_totals",
      "payouts",
      "stripe_reconciliation_differences",
      "announcements",
      "error_log_hours",
      "counters",
      "user_invitations",
      "featured_artists",
    ]) {
      expect(
        statements.some((s) => s.sql.includes(`"${t}"`)),
        t,
      ).toBe(true);
    }
  });

  it("never scans a table that grows with the platform", () => {
    const big =
      /^SCAN (orders|products|vendors|product_period_totals|vendor_period_totals|product_sales_days|payouts|error_logs|error_log_hours|user_invitations|stripe_reconciliation_differences|announcements|featured_artists)\b/;
    for (const s of statements) for (const line of plan(s)) expect(line, s.sql).not.toMatch(big);
  });

  it("a top list walks the (period_days, gross_cents, id) index in order, without sorting", () => {
    for (const s of statements.filter((x) => x.sql.includes("_period_totals"))) {
      const lines = plan(s).join("\n");
      expect(lines, s.sql).toMatch(/SEARCH t USING (COVERING )?INDEX (product|vendor)_period_totals_top_idx \(period_days=\?\)/);
      expect(lines, s.sql).not.toContain("TEMP B-TREE");
    }
  });
});
