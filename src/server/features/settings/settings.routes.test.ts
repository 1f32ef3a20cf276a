import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { settingHistoryResponseSchema, settingsResponseSchema } from "../../../contract/settings.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { SETTINGS_CATALOG, SETTING_KEYS } from "../../domain/settings/settings-catalog.ts";
import { currentFeeRateBasisPoints } from "../../domain/settings/settings.queries.ts";

describe.each(testDatabaseKinds)("settings API on %s", (kind) => {
  let t: TestContext;
  let admin: Awaited<ReturnType<TestContext["createUser"]>>;

  beforeEach(async () => {
    t = await createTestContext(kind);
    admin = await t.createUser({ email: "ops@hki.global" });
  });
  afterEach(async () => {
    await t.close();
  });

  const getSettings = async () => {
    const res = await t.request("/api/admin/settings", { token: admin.token });
    expect(res.status).toBe(200);
    return settingsResponseSchema.parse(await res.json());
  };
  const put = (json: unknown) => t.request("/api/admin/settings", { method: "PUT", token: admin.token, json });
  const history = async (key: string, query = "") => {
    const res = await t.request(`/api/admin/settings/history?key=${key}${query}`, { token: admin.token });
    expect(res.status).toBe(200);
    return settingHistoryResponseSchema.parse(await res.json());
  };
  const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

  it("GET returns every key with its default and description", async () => {
    const settings = await getSettings();
    expect(Object.keys(settings).sort()).toEqual([...SETTING_KEYS].sort());
    expect(settings.platform_fee_percentage).toEqual({
      value: "1.5",
      description: SETTINGS_CATALOG.platform_fee_percentage.description,
      updatedAt: "2026-11-22T12:00:00.000Z",
      updatedBy: null,
    });
    expect(settings.maintenance_mode.value).toBe("false");
    expect(settings.announcement_message.value).toBe("");
  });

  it("is admin-only", async () => {
    const user = await t.createUser({ email: "someone@example.com" });
    expect((await t.request("/api/admin/settings")).status).toBe(401);
    expect((await t.request("/api/admin/settings", { token: user.token })).status).toBe(403);
    expect((await t.request("/api/admin/settings", { method: "PUT", token: user.token, json: { maintenance_mode: "true" } })).status).toBe(403);
    expect((await getSettings()).maintenance_mode.value).toBe("false");
  });

  it("PUT writes the changed keys with who and when, and appends history", async () => {
    t.clock.advance(60_000);
    const res = await put({ platform_fee_percentage: "2.5", maintenance_mode: "true", announcement_message: "Hello artists" });
    expect(res.status).toBe(200);
    const answered = settingsResponseSchema.parse(await res.json());
    expect(answered.platform_fee_percentage).toMatchObject({ value: "2.5", updatedAt: "2026-11-22T12:01:00.000Z", updatedBy: "ops@hki.global" });
    const settings = await getSettings();
    expect(settings.maintenance_mode).toMatchObject({ value: "true", updatedBy: "ops@hki.global" });
    expect(settings.announcement_message.value).toBe("Hello artists");
    // Untouched keys keep their initial stamp.
    expect(settings.support_email).toMatchObject({ updatedBy: null, updatedAt: "2026-11-22T12:00:00.000Z" });

    const h = await history("platform_fee_percentage");
    expect(h.changes).toEqual([{ id: expect.any(String), key: "platform_fee_percentage", oldValue: "1.5", newValue: "2.5", changedBy: "ops@hki.global", changedAt: "2026-11-22T12:01:00.000Z" }]);
    expect(h.nextCursor).toBeNull();
  });

  it("numbers and booleans are kept as their string form; surrounding spaces are trimmed", async () => {
    expect((await put({ platform_fee_percentage: 3, maintenance_mode: true, support_email: "  help@hki.global " })).status).toBe(200);
    const s = await getSettings();
    expect([s.platform_fee_percentage.value, s.maintenance_mode.value, s.support_email.value]).toEqual(["3", "true", "help@hki.global"]);
  });

  it("re-saving the same value records no history", async () => {
    expect((await put({ max_products_per_vendor: "100", invite_code_prefix: "ART" })).status).toBe(200);
    expect((await history("max_products_per_vendor")).changes).toEqual([]);
    expect((await getSettings()).max_products_per_vendor.updatedBy).toBeNull();
    expect((await history("invite_code_prefix")).changes).toHaveLength(1);
  });

  const valid: Array<[string, string]> = [
    ["monthly_subscription_fee", "0"],
    ["monthly_subscription_fee", "49.90"],
    ["shipping_handling_fee", "7.5"],
    ["platform_fee_percentage", "0"],
    ["platform_fee_percentage", "100"],
    ["platform_fee_percentage", "12.3"],
    ["max_products_per_vendor", "1"],
    ["maintenance_mode", "false"],
    ["support_email", "help@example.org"],
    ["invite_code_prefix", "ART2026"],
    ["announcement_message", ""],
    ["announcement_message", "x".repeat(500)],
  ];
  it.each(valid)("accepts %s = %j", async (key, value) => {
    const res = await put({ [key]: value });
    expect(res.status).toBe(200);
  });

  const invalid: Array<[string, unknown]> = [
    ["monthly_subscription_fee", "-1"],
    ["monthly_subscription_fee", "9.999"],
    ["monthly_subscription_fee", "abc"],
    ["monthly_subscription_fee", ""],
    ["shipping_handling_fee", "1e3"],
    ["shipping_handling_fee", "-0.01"],
    ["platform_fee_percentage", "100.1"],
    ["platform_fee_percentage", "1.55"],
    ["platform_fee_percentage", "-1"],
    ["platform_fee_percentage", "NaN"],
    ["max_products_per_vendor", "0"],
    ["max_products_per_vendor", "2.5"],
    ["max_products_per_vendor", "-3"],
    ["maintenance_mode", "yes"],
    ["maintenance_mode", "TRUE"],
    ["support_email", "not-an-email"],
    ["support_email", ""],
    ["invite_code_prefix", "hki"],
    ["invite_code_prefix", "H"],
    ["invite_code_prefix", "TOOLONGPREFIX"],
    ["invite_code_prefix", "HK-I"],
    ["announcement_message", "x".repeat(501)],
    ["announcement_message", { text: "hi" }],
    ["platform_fee_percentage", null],
    ["unknown_key", "1"],
  ];
  it.each(invalid)("refuses %s = %j with a 400 naming the key, writing nothing", async (key, value) => {
    const before = await getSettings();
    // One bad key among good ones: the good ones must not be written either.
    const res = await put({ maintenance_mode: "true", support_email: "new@hki.global", [key]: value });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(new RegExp(`^${key}: `));
    expect(await getSettings()).toEqual(before);
    const changes = await t.database.db.selectFrom("platform_setting_changes").select("id").execute();
    expect(changes).toEqual([]);
  });

  it("refuses a body that is not an object", async () => {
    expect((await put(["maintenance_mode"])).status).toBe(400);
    const res = await t.request("/api/admin/settings", { method: "PUT", token: admin.token, body: "{", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
  });

  it("history pages newest first with a keyset cursor", async () => {
    for (const [i, value] of ["2", "3", "4", "5", "6"].entries()) {
      t.clock.set(`2026-11-22T12:1${i}:00.000Z`); // within the test session's hour
      expect((await put({ platform_fee_percentage: value })).status).toBe(200);
    }
    const first = await history("platform_fee_percentage", "&limit=2");
    expect(first.changes.map((c) => [c.oldValue, c.newValue])).toEqual([
      ["5", "6"],
      ["4", "5"],
    ]);
    const second = await history("platform_fee_percentage", `&limit=2&cursor=${first.nextCursor!}`);
    expect(second.changes.map((c) => c.newValue)).toEqual(["4", "3"]);
    const third = await history("platform_fee_percentage", `&limit=2&cursor=${second.nextCursor!}`);
    expect(third.changes.map((c) => [c.oldValue, c.newValue])).toEqual([["1.5", "2"]]);
    expect(third.nextCursor).toBeNull();
    // Other keys' history is separate.
    expect((await history("support_email")).changes).toEqual([]);
  });

  it("history validates its query", async () => {
    for (const q of ["key=nope", "", "key=support_email&limit=0", "key=support_email&limit=101", "key=support_email&cursor=%%%"]) {
      const res = await t.request(`/api/admin/settings/history?${q}`, { token: admin.token });
      expect(res.status, q).toBe(400);
    }
  });

  it("a new platform fee applies to orders placed after it, never to earlier ones", async () => {
    const db = t.database.db;
    const vendor = await createVendor(db, { name: "Ink", ownerName: "I", email: "ink@example.com", slug: "ink" }, t.clock);
    const product = await createProduct(db, { vendorId: vendor.id, name: "Print", priceCents: 10_000 }, t.clock);
    const order = async () => placeOrder(db, { vendorId: vendor.id, productId: product.id, quantity: 1, feeRateBasisPoints: await currentFeeRateBasisPoints(db) }, t.clock);

    const before = await order();
    expect(before).toMatchObject({ fee_cents: 150, fee_rate_basis_points: 150 });
    expect((await put({ platform_fee_percentage: "2.5" })).status).toBe(200);
    const after = await order();
    expect(after).toMatchObject({ fee_cents: 250, fee_rate_basis_points: 250 });

    const stored = await db.selectFrom("orders").select(["id", "fee_cents"]).where("id", "=", before.id).executeTakeFirstOrThrow();
    expect(stored.fee_cents).toBe(150);
    const totals = await db.selectFrom("vendor_totals").select("fees_cents").where("vendor_id", "=", vendor.id).executeTakeFirstOrThrow();
    expect(totals.fees_cents).toBe(400);
  });
});
