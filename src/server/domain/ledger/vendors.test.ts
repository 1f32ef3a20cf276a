import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../platform/clock.ts";
import { readCounters } from "./counters.ts";
import { placeOrder } from "./orders.ts";
import { createProduct } from "./products.ts";
import { compareRollups } from "./recompute.ts";
import { startSubscription } from "./subscriptions.ts";
import { type TestDatabase, testBackends } from "../../testing/test-databases.ts";
import { createVendor, deleteVendorCascade, setVendorActive } from "./vendors.ts";
import { recordVisits } from "./visits.ts";

const clock = fixedClock("2026-03-10T12:00:00.000Z");
const vendorInput = (slug: string) => ({ name: `Studio ${slug}`, ownerName: "Ana Artist", email: `${slug}@example.com`, slug });

describe.each(testBackends())("vendors ledger on $kind", (backend) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await backend.open();
  });
  afterEach(async () => {
    await t.close();
  });

  it("createVendor writes the row, its totals, counters and the joined day's new_vendors", async () => {
    const v = await createVendor(t.db, { ...vendorInput("a"), isInternal: true, joinedAt: "2026-03-01T08:00:00Z" }, clock);
    await createVendor(t.db, { ...vendorInput("b"), isActive: false }, clock);
    expect(v.joined_at).toBe("2026-03-01T08:00:00.000Z");
    const c = await readCounters(t.db);
    expect([c.vendors_total, c.vendors_active, c.vendors_internal]).toEqual([2, 1, 1]);
    const days = await t.db.selectFrom("daily_platform_totals").select(["day", "new_vendors"]).orderBy("day").execute();
    expect(days).toEqual([
      { day: "2026-03-01", new_vendors: 1 },
      { day: "2026-03-10", new_vendors: 1 },
    ]);
    const totals = await t.db.selectFrom("vendor_totals").selectAll().where("vendor_id", "=", v.id).executeTakeFirstOrThrow();
    expect(totals.orders).toBe(0);
    expect(await compareRollups(t.db)).toEqual([]);
  });

  it("setVendorActive moves vendors_active only on a real change", async () => {
    const v = await createVendor(t.db, vendorInput("a"), clock);
    expect(await setVendorActive(t.db, v.id, false, clock)).toMatchObject({ before: { is_active: 1 }, after: { is_active: 0 }, changed: true });
    expect(await setVendorActive(t.db, v.id, false, clock)).toMatchObject({ before: { is_active: 0 }, after: { is_active: 0 }, changed: false });
    expect((await readCounters(t.db)).vendors_active).toBe(0);
    await setVendorActive(t.db, v.id, true, clock);
    expect((await readCounters(t.db)).vendors_active).toBe(1);
    expect(await setVendorActive(t.db, "missing", true, clock)).toBeNull();
  });

  it("deleteVendorCascade removes everything and takes it out of the platform rollups", async () => {
    const keep = await createVendor(t.db, vendorInput("keep"), clock);
    const gone = await createVendor(t.db, { ...vendorInput("gone"), isInternal: true }, clock);
    const pk = await createProduct(t.db, { vendorId: keep.id, name: "Print", priceCents: 1000 }, clock);
    const pg1 = await createProduct(t.db, { vendorId: gone.id, name: "Vase", priceCents: 2500 }, clock);
    await createProduct(t.db, { vendorId: gone.id, name: "Sketch", priceCents: 500, status: "draft" }, clock);
    await placeOrder(t.db, { vendorId: keep.id, productId: pk.id, quantity: 1, feeRateBasisPoints: 150 }, clock);
    for (let i = 0; i < 3; i++) {
      await placeOrder(t.db, { vendorId: gone.id, productId: pg1.id, quantity: 2, feeRateBasisPoints: 150, createdAt: `2026-03-0${i + 1}T10:00:00Z` }, clock);
    }
    await startSubscription(t.db, { vendorId: gone.id, plan: "artist-monthly", monthlyFeeCents: 2999 }, clock);
    await recordVisits(t.db, gone.id, "2026-03-09", 40);

    const removed = await deleteVendorCascade(t.db, gone.id);
    expect(removed).toMatchObject({ orders: 3, products: 2, subscriptions: 1, storeVisitDays: 1, dailyVendorTotals: 3 });
    expect(await deleteVendorCascade(t.db, gone.id)).toBeNull();
    const c = await readCounters(t.db);
    expect(c).toMatchObject({
      vendors_total: 1,
      vendors_internal: 0,
      products_total: 1,
      products_listed: 1,
      orders_paid: 1,
      mrr_cents: 0,
      subscriptions_active: 0,
    });
    expect(await t.db.selectFrom("orders").select("id").where("vendor_id", "=", gone.id).execute()).toEqual([]);
    expect(await compareRollups(t.db)).toEqual([]);
  });

  it("deleteVendorCascade works in chunks past 2,000 rows", async () => {
    const v = await createVendor(t.db, vendorInput("big"), clock);
    const p = await createProduct(t.db, { vendorId: v.id, name: "Card", priceCents: 300 }, clock);
    const rows = Array.from({ length: 2100 }, (_, i) => ({
      id: `o-${String(i).padStart(5, "0")}`,
      vendor_id: v.id,
      product_id: p.id,
      product_name: "Card",
      quantity: 1,
      gross_cents: 300,
      fee_cents: 5,
      fee_rate_basis_points: 150,
      status: "cancelled" as const,
      customer_email: null,
      created_at: "2026-03-05T00:00:00.000Z",
      updated_at: "2026-03-05T00:00:00.000Z",
    }));
    for (let i = 0; i < rows.length; i += 300)
      await t.db
        .insertInto("orders")
        .values(rows.slice(i, i + 300))
        .execute();
    await t.db.insertInto("counters").values({ name: "orders_total", value: 2100 }).execute();
    const removed = await deleteVendorCascade(t.db, v.id);
    expect(removed?.orders).toBe(2100);
    expect(await compareRollups(t.db)).toEqual([]);
  });
});
