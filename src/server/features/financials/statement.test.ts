import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExportResponseSchema } from "../../../contract/exports.ts";
import { type StatementEntry, statementResponseSchema } from "../../../contract/financials.ts";
import { computeExpectedRollups } from "../../domain/ledger/recompute.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * The artist's statement (docs/product.md §15.8) on both databases, over the demo platform (sales,
 * refunds of every kind, a refund netted after a payout, disputes open, won and lost with the fee
 * charged, payouts paid and failed, subscriptions): for every artist, the running balance ends at
 * the balance Financials shows, which equals a recomputation from the raw rows; keyset pages show
 * each entry once, newest first; the CSV has the same lines.
 */
describe.each(testDatabaseKinds)("artist statement (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };

  beforeAll(async () => {
    ctx = await createTestContext(kind, { seedDemo: true });
    admin = await ctx.createUser({ email: "statement-admin@hki.global", role: "admin" });
  });
  afterAll(async () => {
    await ctx.close();
  });

  const allPages = async (vendorId: string, limit: number) => {
    const entries: StatementEntry[] = [];
    let cursor: string | null = null;
    let balance = 0;
    do {
      const res = await ctx.request(`/api/admin/vendors/${vendorId}/statement?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, { token: admin.token });
      expect(res.status).toBe(200);
      const page = statementResponseSchema.parse(await res.json());
      entries.push(...page.entries);
      balance = page.balance;
      cursor = page.nextCursor;
    } while (cursor);
    return { entries, balance };
  };

  it("ends at the balance Financials shows for every artist, and that balance equals a recomputation", { timeout: 120_000 }, async () => {
    const expected = (await computeExpectedRollups(ctx.database.db)).payoutAccounts;
    const vendors = await ctx.database.db.selectFrom("vendors").select("id").orderBy("id").execute();
    const kinds = new Set<string>();
    for (const { id } of vendors) {
      const { entries, balance } = await allPages(id, 100);
      const recomputed = Number(expected.get(id)!.balance_cents) / 100;
      expect(balance, id).toBe(recomputed);
      if (entries.length > 0) expect(entries[0]!.balance, id).toBe(recomputed);
      const sum = Math.round(entries.reduce((s, e) => s + e.amount * 100, 0));
      expect(sum, id).toBe(Math.round(recomputed * 100));
      // Oldest first, each entry's balance is the one before plus its amount.
      const oldestFirst = [...entries].reverse();
      let running = 0;
      for (const e of oldestFirst) {
        running += Math.round(e.amount * 100);
        expect(Math.round(e.balance * 100)).toBe(running);
      }
      for (const e of entries) kinds.add(e.kind);
    }
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(["dispute_fee", "dispute_hold", "dispute_release", "payout", "payout_returned", "refund", "refund_whole", "cancelled", "sale", "subscription"]),
    );
  });

  it("pages newest first, each entry once, the same entries at any page size; CSV through the one export", async () => {
    const busiest = await ctx.database.db
      .selectFrom("orders")
      .select((eb) => ["vendor_id", eb.fn.countAll<number>().as("n")])
      .groupBy("vendor_id")
      .orderBy("n", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();
    const whole = await allPages(busiest.vendor_id, 100);
    const paged = await allPages(busiest.vendor_id, 7);
    expect(paged.entries).toEqual(whole.entries);
    expect(new Set(whole.entries.map((e) => e.id)).size).toBe(whole.entries.length);
    for (let i = 1; i < whole.entries.length; i++) expect(whole.entries[i - 1]!.at >= whole.entries[i]!.at).toBe(true);

    const created = await ctx.request("/api/admin/exports", { method: "POST", token: admin.token, json: { kind: "statement", filters: { vendorId: busiest.vendor_id } } });
    expect(created.status, await created.clone().text()).toBe(201);
    const csv = await ctx.request(new URL(createExportResponseSchema.parse(await created.json()).url).pathname);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Date,Kind,Description,Reference,Order line,Amount (USD),Balance (USD)");
    expect(lines).toHaveLength(whole.entries.length + 1);
    expect(lines[1]!.endsWith(`,${whole.entries[0]!.balance.toFixed(2)}`)).toBe(true);
    expect((await ctx.request("/api/admin/vendors/no-such-vendor/statement", { token: admin.token })).status).toBe(404);
  });
});
