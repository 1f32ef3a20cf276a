import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AttentionItem, attentionResponseSchema } from "../../../contract/dashboard.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { addPendingPayouts, insertPayoutRun, markPayoutFailed, markPayoutProcessing, markPayoutUnknown } from "../../domain/ledger/payouts.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { recordDifference } from "../../domain/ledger/stripe-reconciliation.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { newId } from "../../platform/db/ids.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(testDatabaseKinds)("GET /api/admin/dashboard/attention (%s)", (kind) => {
  let ctx: TestContext;
  let token: string;
  let signIns = 0;

  const signIn = async () => {
    token = (await ctx.createUser({ email: `boss${++signIns}@hki.global` })).token;
  };
  const items = async (): Promise<AttentionItem[]> => {
    const res = await ctx.request("/api/admin/dashboard/attention", { token });
    expect(res.status).toBe(200);
    return attentionResponseSchema.parse(await res.json()).items;
  };
  const find = async (key: AttentionItem["key"]) => (await items()).find((i) => i.key === key);
  const vendor = (name: string, payoutStatus?: "active" | "restricted") =>
    createVendor(
      ctx.database.db,
      {
        name,
        ownerName: "O",
        email: `${name}@x.com`,
        slug: name.toLowerCase(),
        joinedAt: "2026-01-01T00:00:00.000Z",
        ...(payoutStatus ? { payoutAccount: { stripeAccountId: `acct_${name}`, status: payoutStatus } } : {}),
      },
      ctx.clock,
    );
  const sell = async (vendorId: string, cents: number) => {
    const product = await createProduct(ctx.database.db, { vendorId, name: "Thing", priceCents: cents, createdAt: "2026-02-01T00:00:00.000Z" }, ctx.clock);
    await placeOrder(ctx.database.db, { vendorId, productId: product.id, quantity: 1, feeRateBasisPoints: 0, createdAt: "2026-11-01T00:00:00.000Z" }, ctx.clock);
  };
  const errorLog = (createdAt: string, level: "error" | "warning" = "error") =>
    ctx.database.db
      .insertInto("error_logs")
      .values({
        id: newId(),
        level,
        message: "boom",
        endpoint: null,
        method: null,
        status_code: 500,
        user_email: null,
        ip_address: null,
        user_agent: null,
        stack_trace: null,
        context: null,
        fingerprint: null,
        created_at: createdAt,
        archived_at: null,
        archived: 0,
        request_id: null,
      })
      .execute();

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    await signIn();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("an empty platform needs only a featured artist; featuring one for a day says it ends soon; a longer one clears it", async () => {
    expect(await items()).toEqual([expect.objectContaining({ key: "featured_slot", label: "No featured artist", count: 1, href: "/vendors?status=active" })]);
    const v = await vendor("Ada", "active");
    const feature = (json: unknown) => ctx.request("/api/admin/featured-artist", { method: "POST", token, json });
    expect((await feature({ vendorId: v.id, duration: 1 })).status).toBe(201);
    expect(await find("featured_slot")).toMatchObject({ label: "The featured artist ends within a day", detail: "Ada, until 2026-11-23 12:00 UTC" });
    // Something queued after it: the slot does not become empty.
    expect((await feature({ vendorId: v.id, duration: 3, startAfterCurrent: true })).status).toBe(201);
    expect(await find("featured_slot")).toBeUndefined();
    expect((await feature({ vendorId: v.id, duration: 7 })).status).toBe(201);
    expect(await find("featured_slot")).toBeUndefined();
  });

  it("artists owed money with a restricted or unconnected payout account", async () => {
    const r = await vendor("Rita", "restricted");
    await sell(r.id, 12_345);
    const n = await vendor("Ned");
    await sell(n.id, 500);
    const ok = await vendor("Olga", "active");
    await sell(ok.id, 999);
    expect(await find("payout_accounts_restricted")).toMatchObject({ count: 1, detail: "$123.45 owed", severity: "critical", href: "/financials?balances.status=restricted" });
    expect(await find("payout_accounts_not_connected")).toMatchObject({ count: 1, detail: "$5.00 owed", href: "/financials?balances.status=not_connected" });
  });

  it("failed payouts and payouts whose outcome is unknown, and the Stripe reconciliation's open differences", async () => {
    const { db } = ctx.database;
    const vendors = await Promise.all(["A", "B", "C"].map((n) => vendor(n, "active")));
    for (const v of vendors) await sell(v.id, 10_000);
    await insertPayoutRun(db, { id: "run-1", minimumCents: 0, expectedPayouts: 3, expectedCents: 30_000, skipped: 0, skippedCents: 0, createdBy: null, createdAt: NOW });
    await addPendingPayouts(
      db,
      "run-1",
      vendors.map((v, k) => ({ id: `p${k}`, vendorId: v.id, vendorName: v.name, destination: `acct_${v.name}`, amountCents: 10_000 })),
      NOW,
    );
    expect(await find("payouts_failed")).toBeUndefined();
    for (const id of ["p0", "p1", "p2"]) await markPayoutProcessing(db, id, NOW);
    await markPayoutFailed(db, "p0", "Card declined", false, NOW);
    await markPayoutFailed(db, "p1", "No capability", false, NOW);
    await markPayoutUnknown(db, "p2", "Timed out", NOW);
    expect(await find("payouts_failed")).toMatchObject({ count: 2, capped: false, href: "/financials?payouts.status=failed" });
    expect(await find("payouts_unknown")).toMatchObject({ count: 1, href: "/financials?payouts.status=unknown" });
    expect(await find("stripe_differences")).toBeUndefined();
    await recordDifference(
      db,
      newId(),
      {
        key: "k1",
        kind: "unknown_transfer",
        runId: "run-1",
        payoutId: null,
        vendorId: null,
        vendorName: null,
        destination: "acct_X",
        stripeTransferId: "tr_1",
        stripeAmountCents: 100,
        ledgerAmountCents: null,
        detail: "A transfer the ledger does not know",
      },
      NOW,
    );
    expect(await find("stripe_differences")).toMatchObject({ count: 1, href: "/system-debug" });
  });

  it("errors of the last 24 hours against the daily average of the 7 days before; a spike shows as such", async () => {
    expect(await find("errors_spike")).toBeUndefined();
    // 14 errors over the week before: 2 a day. Warnings never count.
    for (let d = 2; d <= 8; d++) for (const h of [1, 5]) await errorLog(new Date(Date.parse(NOW) - d * DAY + h * HOUR).toISOString());
    await errorLog(new Date(Date.parse(NOW) - HOUR).toISOString(), "warning");
    expect(await find("errors_spike")).toBeUndefined();
    for (let i = 0; i < 3; i++) await errorLog(new Date(Date.parse(NOW) - (i + 1) * HOUR).toISOString());
    expect(await find("errors_spike")).toMatchObject({
      label: "Errors in the last 24 hours",
      count: 3,
      detail: "2 a day on average over the 7 days before",
      severity: "info",
      href: "/errors?level=error",
    });
    for (let i = 0; i < 8; i++) await errorLog(new Date(Date.parse(NOW) - 20 * HOUR).toISOString());
    expect(await find("errors_spike")).toMatchObject({ label: "Spike of errors in the last 24 hours", count: 11, severity: "critical" });
  });

  it("artists over the product limit, after the limit setting changes", async () => {
    const v = await vendor("Many", "active");
    for (let i = 0; i < 3; i++) await createProduct(ctx.database.db, { vendorId: v.id, name: `P${i}`, priceCents: 100 }, ctx.clock);
    expect(await find("vendors_over_product_limit")).toBeUndefined();
    const res = await ctx.request("/api/admin/settings", { method: "PUT", token, json: { max_products_per_vendor: "2" } });
    expect(res.status, await res.clone().text()).toBe(200);
    const over = await find("vendors_over_product_limit");
    expect(over).toMatchObject({ count: 1, href: "/products?overLimit=true" });
    // The link's list holds exactly that artist's products.
    const list = await ctx.request(`/api/admin${over!.href}`, { token });
    const body = (await list.json()) as { products: Array<{ vendorId: string }>; total: number };
    expect(list.status).toBe(200);
    expect(body.total).toBe(3);
    expect(new Set(body.products.map((p) => p.vendorId))).toEqual(new Set([v.id]));
  });

  it("invitations expiring within 2 days", async () => {
    const res = await ctx.request("/api/admin/users/invite", { method: "POST", token, json: { email: "new@example.com", role: "viewer" } });
    expect(res.status).toBe(201);
    expect(await find("invitations_expiring")).toBeUndefined();
    const { expires_at } = await ctx.database.db.selectFrom("user_invitations").select("expires_at").executeTakeFirstOrThrow();
    ctx.clock.set(new Date(Date.parse(expires_at) - 2 * DAY + 60_000).toISOString());
    await signIn();
    expect(await find("invitations_expiring")).toMatchObject({ count: 1, href: "/admin-users?tab=invitations" });
    ctx.clock.set(new Date(Date.parse(expires_at) + 1).toISOString());
    await signIn();
    expect(await find("invitations_expiring")).toBeUndefined();
  });

  it("failed announcement deliveries of the last 30 days, linking to the latest one's failed recipients", async () => {
    const announcement = async (createdAt: string, failed: number) => {
      const id = newId();
      await ctx.database.db
        .insertInto("announcements")
        .values({
          id,
          title: "Hello",
          message: "Hi",
          html_body: "<p>Hi</p>",
          text_body: "Hi",
          audience: "all",
          include_internal: 0,
          vendor_ids: null,
          send_email: 1,
          show_on_dashboard: 0,
          show_until: null,
          taken_down_at: null,
          status: "sent",
          queue_cursor: null,
          recipients: 10,
          pending_count: 0,
          sent_count: 10 - failed,
          failed_count: failed,
          canceled_count: 0,
          created_by: null,
          created_at: createdAt,
          updated_at: createdAt,
          finished_at: createdAt,
        } as never)
        .execute();
      return id;
    };
    await announcement(new Date(Date.parse(NOW) - 40 * DAY).toISOString(), 5);
    await announcement(new Date(Date.parse(NOW) - DAY).toISOString(), 0);
    expect(await find("announcement_failures")).toBeUndefined();
    const older = await announcement(new Date(Date.parse(NOW) - 3 * DAY).toISOString(), 3);
    expect(await find("announcement_failures")).toMatchObject({ count: 3, detail: "In 1 announcement of the last 30 days", href: `/communications/${older}?status=failed` });
    const latest = await announcement(new Date(Date.parse(NOW) - 2 * DAY).toISOString(), 1);
    expect(await find("announcement_failures")).toMatchObject({
      count: 4,
      detail: "In 2 announcements of the last 30 days; opens the latest",
      href: `/communications/${latest}?status=failed`,
    });
  });

  it("lists the most severe first, and viewers see it too", async () => {
    const r = await vendor("Rita", "restricted");
    await sell(r.id, 100);
    const viewer = await ctx.createUser({ email: "look@example.com", role: "viewer" });
    const res = await ctx.request("/api/admin/dashboard/attention", { token: viewer.token });
    expect(res.status).toBe(200);
    expect(attentionResponseSchema.parse(await res.json()).items.map((i) => i.key)).toEqual(["payout_accounts_restricted", "featured_slot"]);
  });
});
