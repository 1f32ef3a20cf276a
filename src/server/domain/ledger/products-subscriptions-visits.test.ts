import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../platform/clock.ts";
import { incrementCounter, readCounters } from "./counters.ts";
import { createProduct, setProductStatus } from "./products.ts";
import { compareRollups, recomputeRollups } from "./recompute.ts";
import { cancelSubscription, startSubscription } from "./subscriptions.ts";
import { type TestDatabase, testBackends } from "../../testing/test-databases.ts";
import { createVendor } from "./vendors.ts";
import { recordVisits, recordVisitsMany } from "./visits.ts";

const clock = fixedClock("2026-03-10T12:00:00.000Z");

describe.each(testBackends())("products, subscriptions, visits, counters on $kind", (backend) => {
  let t: TestDatabase;
  let vendorId = "";
  beforeEach(async () => {
    t = await backend.open();
    vendorId = (await createVendor(t.db, { name: "Clay", ownerName: "C", email: "c@x.com", slug: "clay" }, clock)).id;
  });
  afterEach(async () => {
    await t.close();
  });

  it("createProduct and setProductStatus keep products_listed and listed_products", async () => {
    const p = await createProduct(t.db, { vendorId, name: "Bowl", priceCents: 4200, createdAt: "2026-02-28T23:00:00Z" }, clock);
    await createProduct(t.db, { vendorId, name: "Cup", priceCents: 1800, status: "draft" }, clock);
    expect(await readCounters(t.db)).toMatchObject({ products_total: 2, products_listed: 1 });
    await setProductStatus(t.db, p.id, "draft");
    expect(await readCounters(t.db)).toMatchObject({ products_total: 2, products_listed: 0 });
    const day = await t.db.selectFrom("daily_platform_totals").selectAll().where("day", "=", "2026-02-28").executeTakeFirstOrThrow();
    expect(day.new_products).toBe(1);
    await expect(createProduct(t.db, { vendorId: "missing", name: "X", priceCents: 1 }, clock)).rejects.toMatchObject({ code: "not_found" });
    expect(await setProductStatus(t.db, "missing", "listed")).toBeNull();
    expect(await compareRollups(t.db)).toEqual([]);
  });

  it("subscriptions keep mrr_cents and subscriptions_active", async () => {
    const a = await startSubscription(t.db, { vendorId, plan: "artist-monthly", monthlyFeeCents: 2999 }, clock);
    await startSubscription(t.db, { vendorId, plan: "legacy", monthlyFeeCents: 1999 }, clock);
    expect(await readCounters(t.db)).toMatchObject({ mrr_cents: 4998, subscriptions_active: 2 });
    expect((await cancelSubscription(t.db, a.id, clock))?.status).toBe("cancelled");
    await cancelSubscription(t.db, a.id, clock);
    expect(await readCounters(t.db)).toMatchObject({ mrr_cents: 1999, subscriptions_active: 1 });
    expect(await compareRollups(t.db)).toEqual([]);
  });

  it("recordVisits adds to the day and to the vendor's lifetime visits", async () => {
    await recordVisits(t.db, vendorId, "2026-03-01", 10);
    await recordVisits(t.db, vendorId, "2026-03-01", 5);
    await recordVisitsMany(t.db, vendorId, [
      { day: "2026-03-02", count: 7 },
      { day: "2026-03-02", count: 1 },
    ]);
    const rows = await t.db.selectFrom("store_visits").select(["day", "visits"]).orderBy("day").execute();
    expect(rows).toEqual([
      { day: "2026-03-01", visits: 15 },
      { day: "2026-03-02", visits: 8 },
    ]);
    expect((await t.db.selectFrom("vendor_totals").select("visits").executeTakeFirstOrThrow()).visits).toBe(23);
    await expect(recordVisits(t.db, vendorId, "March 1", 1)).rejects.toMatchObject({ code: "invalid_input" });
    expect(await compareRollups(t.db)).toEqual([]);
  });

  it("compareRollups reports a damaged counter and recomputeRollups repairs it", async () => {
    await createProduct(t.db, { vendorId, name: "Bowl", priceCents: 4200 }, clock);
    await incrementCounter(t.db, "products_listed", 5);
    await t.db.updateTable("daily_platform_totals").set({ new_vendors: 9 }).execute();
    const diffs = await compareRollups(t.db);
    expect(diffs.map((d) => `${d.table}.${d.column}`).sort()).toEqual(["counters.value", "daily_platform_totals.new_vendors"]);
    expect(await recomputeRollups(t.db)).toHaveLength(2);
    expect(await compareRollups(t.db)).toEqual([]);
  });
});
