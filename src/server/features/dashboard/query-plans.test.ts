import { Kysely, SqliteDialect } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANALYTICS_PERIODS } from "../../../contract/analytics.ts";
import { readAnalytics } from "../analytics/analytics.queries.ts";
import { buildPlatformFixture, FIXTURE_NOW } from "../../testing/platform-figures-fixture.ts";
import type { DB } from "../../platform/db/schema.ts";
import { createTestContext, type TestContext } from "../../testing/test-app.ts";
import { readDashboardStats } from "./dashboard.queries.ts";

/**
 * The dashboard and analytics must never scan orders, products or vendors (docs/product.md §12.3 "Performance
 * keep it fast"). Every statement the endpoints run is captured through a Kysely log hook on the
 * same SQLite handle and its EXPLAIN QUERY PLAN is checked: searches and index walks bounded by a
 * range are fine, "SCAN <table>" (a walk of the whole table or a whole index) is not.
 */
/** Sizes of the benchmark platform (docs/product.md §12.3): the planner must choose well at this scale. */
// Two years of daily rollup rows: a month's sums must read a range of them, not all.
const LARGE_ROWS: Record<string, number> = { orders: 5_000_000, products: 1_000_000, vendors: 50_000, daily_platform_totals: 730 };

/**
 * Gives SQLite's planner the statistics of a large platform: ANALYZE over the fixture, then the
 * row counts of orders, products, vendors and the daily rollup scaled up. (Statistics of a handful of rows would
 * rightly make it scan them; without any statistics it guesses, and a real database may run
 * ANALYZE.) `ANALYZE sqlite_schema` reloads the edited statistics.
 */
function pretendLargePlatform(sqlite: NonNullable<TestContext["database"]["sqlite"]>): void {
  sqlite.exec("ANALYZE");
  const rows = sqlite.prepare("select tbl, idx, stat from sqlite_stat1").all() as Array<{ tbl: string; idx: string | null; stat: string }>;
  const update = sqlite.prepare("update sqlite_stat1 set stat = ? where tbl = ? and idx is ?");
  for (const r of rows) {
    const n = LARGE_ROWS[r.tbl];
    if (n === undefined) continue;
    const [, ...perKey] = r.stat.split(" ");
    update.run([String(n), ...perKey].join(" "), r.tbl, r.idx);
  }
  sqlite.exec("ANALYZE sqlite_schema");
}

describe("dashboard and analytics query plans (sqlite)", () => {
  let ctx: TestContext;
  let statements: Array<{ sql: string; parameters: readonly unknown[] }>;
  let logged: Kysely<DB>;

  beforeAll(async () => {
    ctx = await createTestContext("sqlite", { now: FIXTURE_NOW });
    await buildPlatformFixture(ctx.database.db, ctx.clock);
    pretendLargePlatform(ctx.database.sqlite!);
    statements = [];
    logged = new Kysely<DB>({
      dialect: new SqliteDialect({ database: ctx.database.sqlite! }),
      log: (event) => {
        if (event.level === "query") statements.push({ sql: event.query.sql, parameters: event.query.parameters });
      },
    });
    const now = ctx.clock.now();
    await readDashboardStats(logged, now);
    for (const days of ANALYTICS_PERIODS) await readAnalytics(logged, now, days);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const plan = (s: { sql: string; parameters: readonly unknown[] }) =>
    (ctx.database.sqlite!.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.parameters) as Array<{ detail: string }>).map((r) => r.detail);

  it("captured the statements of both endpoints", () => {
    const tables = ["counters", "daily_platform_totals", "platform_settings", "orders", "products", "vendors"];
    for (const t of tables)
      expect(
        statements.some((s) => s.sql.includes(`from "${t}"`)),
        t,
      ).toBe(true);
  });

  it("never scans orders, products, vendors or the daily rollup", () => {
    // (counters and platform_settings hold a dozen rows each: reading them whole costs nothing.)
    for (const s of statements) {
      for (const line of plan(s)) expect(line, s.sql).not.toMatch(/^SCAN (orders|products|vendors|daily_platform_totals)\b/);
    }
  });

  it("walks the created/joined indexes for the recent activity", () => {
    const uses = (table: string, index: string | RegExp) => {
      const s = statements.find((x) => x.sql.includes(`from "${table}"`));
      expect(s, table).toBeDefined();
      const walk = typeof index === "string" ? index : index.source;
      expect(plan(s!).join("\n")).toMatch(new RegExp(`SEARCH ${table} USING INDEX ${walk}`));
    };
    // Paid orders newest first: the paid ones of (status, created_at, id) (migration 026) or all of (created_at, id).
    uses("orders", /orders_(status_)?created_idx/);
    uses("products", "products_created_idx");
    uses("vendors", "vendors_joined_idx");
  });
});
