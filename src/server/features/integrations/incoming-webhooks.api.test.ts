import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { attentionResponseSchema } from "../../../contract/dashboard.ts";
import { balancesResponseSchema, payoutRunResponseSchema, vendorPayoutsResponseSchema } from "../../../contract/financials.ts";
import { incomingEventsResponseSchema } from "../../../contract/integrations-inbound.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { addPendingPayouts, insertPayoutRun, markPayoutPaid, markPayoutProcessing } from "../../domain/ledger/payouts.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { JobWorker } from "../../platform/jobs/job-worker.ts";
import { sessionIdForToken } from "../../platform/identity/local-auth-provider.ts";
import { StripePayouts } from "../../platform/stripe/stripe-payouts.ts";
import { type FakeStripeServer, startFakeStripe } from "../../testing/fake-stripe-server.ts";
import {
  TEST_STRIPE_WEBHOOK_SECRET,
  WEBHOOK_ENV,
  clerkEvent,
  clerkHeaders,
  clerkUser,
  deliverClerk,
  deliverStripe,
  postClerk,
  postStripe,
  stripeAccount,
  stripeEvent,
  stripeSignature,
  stripeTransfer,
} from "../../testing/provider-webhooks.ts";
import { artist, event } from "../../testing/storefront-events.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { payoutJobs } from "../financials/payout-run.job.ts";
import { incomingEventsJobs, sweepIncomingEvents } from "./incoming-events.job.ts";

/**
 * Stripe's and Clerk's webhooks coming in (issue 34), on both databases, with deliveries signed by
 * the providers' own SDKs: only a verified delivery is taken; each event is stored once by its id
 * and applied once by its job; out of order, the newest state of an object wins. What they move is
 * read where an operator reads it: the balances screen, the vendor's payout account, the staff's
 * sessions, the attention inbox, the Integrations screen's incoming events.
 */

const NOW = "2026-11-22T12:00:00.000Z";
const STRIPE_KEY = "sk_test_51IncomingWebhooksKeyAbcdefghij";
const ACCOUNT = "acct_1IncomingHeron";
const CLERK_STAFF = "user_2StaffMemberClerk";
const CLERK_ARTIST = "user_2ArtistOwnerClerk";

describe.each(testDatabaseKinds)("Stripe's and Clerk's webhooks (%s)", (kind) => {
  let ctx: TestContext;
  let fake: FakeStripeServer;
  let admin: { token: string };
  let vendorId: string;

  const worker = () => {
    const w = new JobWorker(ctx.database, ctx.clock, { retryBaseMs: 1_000 });
    incomingEventsJobs(w, ctx.deps);
    payoutJobs(w, ctx.deps, { provider: new StripePayouts({ secretKey: STRIPE_KEY, apiBase: fake.url, timeoutMs: 2_000 }), maxRps: 1000, backoffBaseMs: 1 });
    return w;
  };
  const drain = async () => {
    const w = worker();
    while (await w.runOnce()) {
      /* next job */
    }
  };
  const get = async <T>(path: string, schema: { parse: (v: unknown) => T }): Promise<T> => {
    const res = await ctx.request(path, { token: admin.token });
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    return schema.parse(await res.json());
  };
  const balanceRow = async () => (await get("/api/admin/financial/balances", balancesResponseSchema)).balances.find((b) => b.vendorId === vendorId);
  const payoutAccount = () => get(`/api/admin/vendors/${vendorId}/payout-account`, vendorPayoutsResponseSchema);
  const incoming = (query = "") => get(`/api/admin/integrations/incoming-events${query}`, incomingEventsResponseSchema);
  const storedEvents = async () =>
    Number(
      (
        await ctx.database.db
          .selectFrom("incoming_events")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const eventRow = (eventId: string) => ctx.database.db.selectFrom("incoming_events").selectAll().where("event_id", "=", eventId).executeTakeFirstOrThrow();
  const accountUpdated = (created: string, state: Parameters<typeof stripeAccount>[1], id?: string) =>
    stripeEvent("account.updated", stripeAccount(ACCOUNT, state), { created, ...(id ? { id } : {}) });
  const received = async (res: Response) => {
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { received: true; duplicate: boolean };
  };

  beforeEach(async () => {
    fake = await startFakeStripe();
    ctx = await createTestContext(kind, { now: NOW, env: { ...WEBHOOK_ENV, STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_API_BASE: fake.url } });
    admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
    const { db } = ctx.database;
    // An artist who signed up at the storefront with Clerk and connected Stripe (still pending), owed $98.50.
    const v = await createVendor(
      db,
      {
        name: "Blue Heron Prints",
        ownerName: "Ada Heron",
        email: "ada@heron.example",
        slug: "blue-heron",
        ownerUserId: CLERK_ARTIST,
        joinedAt: "2026-09-01T00:00:00Z",
        payoutAccount: { stripeAccountId: ACCOUNT, status: "pending" },
      },
      ctx.clock,
    );
    vendorId = v.id;
    const p = await createProduct(db, { vendorId, name: "Heron at dawn", priceCents: 10_000, createdAt: "2026-09-02T00:00:00Z" }, ctx.clock);
    await placeOrder(db, { vendorId, productId: p.id, quantity: 1, grossCents: 10_000, feeRateBasisPoints: 150, createdAt: "2026-11-01T10:00:00Z" }, ctx.clock);
  });
  afterEach(async () => {
    await ctx.close();
    await fake.close();
  });

  describe("verification", () => {
    const signedStripe = () => {
      const payload = JSON.stringify(accountUpdated(NOW, { chargesEnabled: true, payoutsEnabled: true }));
      return { payload, signature: stripeSignature(payload) };
    };

    it("Stripe: a delivery signed by Stripe's SDK is taken; unsigned, altered, wrong-secret and old ones are 400 and store nothing", async () => {
      const { payload, signature } = signedStripe();
      const refusals: Array<[string, Response]> = [
        ["unsigned", await postStripe(ctx, payload, {})],
        ["altered body", await postStripe(ctx, payload.replace('"payouts_enabled":true', '"payouts_enabled":false'), { "stripe-signature": signature })],
        ["wrong secret", await postStripe(ctx, payload, { "stripe-signature": stripeSignature(payload, { secret: "whsec_someone_elses_endpoint" }) })],
        ["10 minutes old", await postStripe(ctx, payload, { "stripe-signature": stripeSignature(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 }) })],
        ["forged header", await postStripe(ctx, payload, { "stripe-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` })],
      ];
      for (const [what, res] of refusals) {
        expect(res.status, what).toBe(400);
        const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
        expect(body.error.code, what).toBe("invalid_signature");
        expect(Object.keys(body.error.fields), what).toEqual(["stripe-signature"]);
      }
      expect(await storedEvents()).toBe(0);
      expect(await received(await postStripe(ctx, payload, { "stripe-signature": signature }))).toEqual({ received: true, duplicate: false });
      expect(await storedEvents()).toBe(1);
    });

    it("Stripe: with two endpoints' secrets (the account's and the connected accounts'), a delivery signed with either is taken", async () => {
      const second = "whsec_connected_accounts_endpoint_secret";
      const both = await createTestContext(kind, { now: NOW, env: { STRIPE_WEBHOOK_SECRET: `${TEST_STRIPE_WEBHOOK_SECRET},${second}` } });
      try {
        for (const secret of [TEST_STRIPE_WEBHOOK_SECRET, second]) {
          const payload = JSON.stringify(accountUpdated(NOW, { chargesEnabled: true, payoutsEnabled: true }));
          expect((await postStripe(both, payload, { "stripe-signature": stripeSignature(payload, { secret }) })).status).toBe(200);
        }
        const payload = JSON.stringify(accountUpdated(NOW, { chargesEnabled: true, payoutsEnabled: true }));
        expect((await postStripe(both, payload, { "stripe-signature": stripeSignature(payload, { secret: "whsec_a_third_endpoint" }) })).status).toBe(400);
      } finally {
        await both.close();
      }
    });

    it("Clerk: a delivery signed by Svix's signer is taken; unsigned, altered, wrong-secret and old ones are 400 and store nothing", async () => {
      const payload = JSON.stringify(clerkEvent("user.updated", clerkUser(CLERK_ARTIST, "ada@new.example", NOW), NOW));
      const headers = clerkHeaders(payload);
      const otherSecret = `whsec_${Buffer.from("another-endpoint-entirely-000000").toString("base64")}`;
      const refusals: Array<[string, Response]> = [
        ["unsigned", await postClerk(ctx, payload, {})],
        ["altered body", await postClerk(ctx, payload.replace("ada@new.example", "eve@evil.example"), headers)],
        ["wrong secret", await postClerk(ctx, payload, clerkHeaders(payload, { secret: otherSecret }))],
        ["10 minutes old", await postClerk(ctx, payload, clerkHeaders(payload, { at: new Date(Date.now() - 600_000) }))],
        ["another message's signature", await postClerk(ctx, payload, { ...headers, "svix-id": "msg_replayed_under_another_id" })],
      ];
      for (const [what, res] of refusals) {
        expect(res.status, what).toBe(400);
        expect(((await res.json()) as { error: { code: string } }).error.code, what).toBe("invalid_signature");
      }
      expect(await storedEvents()).toBe(0);
      expect(await received(await postClerk(ctx, payload, headers))).toEqual({ received: true, duplicate: false });
      expect(await storedEvents()).toBe(1);
    });

    it("without a signing secret each endpoint answers 503 naming the variable, and takes nothing", async () => {
      const bare = await createTestContext(kind, { now: NOW });
      try {
        const stripe = JSON.stringify(accountUpdated(NOW, { chargesEnabled: true, payoutsEnabled: true }));
        const clerk = JSON.stringify(clerkEvent("user.deleted", { id: CLERK_STAFF, object: "user", deleted: true }, NOW));
        const s = await postStripe(bare, stripe, { "stripe-signature": stripeSignature(stripe) });
        const c = await postClerk(bare, clerk, clerkHeaders(clerk));
        expect([s.status, c.status]).toEqual([503, 503]);
        expect(((await s.json()) as { error: { message: string } }).error.message).toContain("STRIPE_WEBHOOK_SECRET");
        expect(((await c.json()) as { error: { message: string } }).error.message).toContain("CLERK_WEBHOOK_SIGNING_SECRET");
        expect(await bare.database.db.selectFrom("incoming_events").select("id").execute()).toEqual([]);
      } finally {
        await bare.close();
      }
    });
  });

  describe("Stripe", () => {
    it("account.updated moves the balances screen's account column and the payout account's requirements", async () => {
      expect(await balanceRow()).toMatchObject({ balance: 98.5, accountStatus: "pending" });
      await received(await deliverStripe(ctx, accountUpdated("2026-11-22T11:59:00.000Z", { chargesEnabled: true, payoutsEnabled: true })));
      // Answered at once; applied by the job.
      expect((await balanceRow())?.accountStatus).toBe("pending");
      await drain();
      expect(await balanceRow()).toMatchObject({ balance: 98.5, accountStatus: "active" });

      await received(
        await deliverStripe(ctx, accountUpdated("2026-11-22T11:59:30.000Z", { chargesEnabled: true, payoutsEnabled: false, pastDue: ["external_account"], disabledReason: "requirements.past_due" })),
      );
      await drain();
      expect((await balanceRow())?.accountStatus).toBe("restricted");
      expect((await payoutAccount()).account).toMatchObject({
        status: "restricted",
        payoutsEnabled: false,
        requirements: { pastDue: ["external_account"], disabledReason: "requirements.past_due" },
        checkedAt: "2026-11-22T11:59:30.000Z",
      });
      const audit = await ctx.database.db.selectFrom("audit_log").select(["actor_email", "action", "target_id"]).where("action", "=", "payout_account.update").orderBy("created_at").execute();
      expect(audit).toEqual([
        { actor_email: "system", action: "payout_account.update", target_id: vendorId },
        { actor_email: "system", action: "payout_account.update", target_id: vendorId },
      ]);
      expect(await compareRollups(ctx.database.db)).toEqual([]);
    });

    it("out of order, the newest account state wins: an older event delivered later changes nothing, and neither does one older than a refresh", async () => {
      await received(await deliverStripe(ctx, accountUpdated("2026-11-22T11:50:00.000Z", { chargesEnabled: true, payoutsEnabled: true }, "evt_newer")));
      await received(await deliverStripe(ctx, accountUpdated("2026-11-22T11:40:00.000Z", { chargesEnabled: false, payoutsEnabled: false, disabledReason: "rejected.fraud" }, "evt_older")));
      await drain();
      expect((await balanceRow())?.accountStatus).toBe("active");
      expect(await eventRow("evt_newer")).toMatchObject({ status: "processed" });
      expect(await eventRow("evt_older")).toMatchObject({ status: "stale" });

      // The refresh button reads Stripe now (12:00): an event made before it, arriving after, is stale.
      fake.accounts.set(ACCOUNT, {
        id: ACCOUNT,
        charges_enabled: true,
        payouts_enabled: false,
        details_submitted: true,
        requirements: { currently_due: ["tos_acceptance.date"], past_due: [], disabled_reason: null },
      });
      const refresh = await ctx.request(`/api/admin/vendors/${vendorId}/payout-account/refresh`, { method: "POST", token: admin.token });
      expect(refresh.status, await refresh.clone().text()).toBe(200);
      expect((await balanceRow())?.accountStatus).toBe("pending");
      await received(await deliverStripe(ctx, accountUpdated("2026-11-22T11:55:00.000Z", { chargesEnabled: true, payoutsEnabled: true }, "evt_before_refresh")));
      await drain();
      expect((await balanceRow())?.accountStatus).toBe("pending");
      expect(await eventRow("evt_before_refresh")).toMatchObject({ status: "stale" });
    });

    it("transfer.reversed puts the reversed amount back in the artist's balance once, whatever is re-sent", async () => {
      // Active, then paid by a payout run through (the fake) Stripe: balance 0.
      await deliverStripe(ctx, accountUpdated("2026-11-22T11:00:00.000Z", { chargesEnabled: true, payoutsEnabled: true }));
      await drain();
      const start = await ctx.request("/api/admin/financial/payouts/runs", { method: "POST", token: admin.token, json: {} });
      expect(start.status, await start.clone().text()).toBe(201);
      await drain();
      const run = payoutRunResponseSchema.parse(
        await (await ctx.request(`/api/admin/financial/payouts/runs/${payoutRunResponseSchema.parse(await start.json()).run.id}`, { token: admin.token })).json(),
      ).run;
      expect(run.status).toBe("completed");
      expect(await balanceRow()).toBeUndefined();
      const [transfer] = fake.transfers;
      expect(transfer).toMatchObject({ amount: 9850, destination: ACCOUNT });

      // Stripe takes $30 back: one event, delivered twice (same id), then a second event stating the same total.
      const reversed = stripeEvent("transfer.reversed", stripeTransfer(transfer!.id, 9850, 3000, transfer!.metadata), { id: "evt_reversal", created: NOW });
      expect(await received(await deliverStripe(ctx, reversed))).toEqual({ received: true, duplicate: false });
      expect(await received(await deliverStripe(ctx, reversed))).toEqual({ received: true, duplicate: true });
      await drain();
      expect(await balanceRow()).toMatchObject({ balance: 30, accountStatus: "active" });
      await received(await deliverStripe(ctx, stripeEvent("transfer.reversed", stripeTransfer(transfer!.id, 9850, 3000, transfer!.metadata), { id: "evt_same_total", created: NOW })));
      await drain();
      expect((await balanceRow())?.balance).toBe(30);
      expect(await eventRow("evt_same_total")).toMatchObject({ status: "stale" });
      expect(await ctx.database.db.selectFrom("jobs").select("id").where("kind", "=", "incoming_events.process").execute()).toHaveLength(3);

      // A later, larger reversal adds only what is new.
      await received(await deliverStripe(ctx, stripeEvent("transfer.reversed", stripeTransfer(transfer!.id, 9850, 5000, transfer!.metadata), { created: "2026-11-22T12:05:00.000Z" })));
      await drain();
      expect((await balanceRow())?.balance).toBe(50);
      expect((await payoutAccount()).money).toMatchObject({ paidOut: 48.5, balance: 50 });
      expect(await compareRollups(ctx.database.db)).toEqual([]);
    });

    it("a reversal of a payout not yet recorded as paid fails every attempt, shows as failed, and is applied by a retry once recorded", async () => {
      const { db } = ctx.database;
      await insertPayoutRun(db, { id: "run_1", minimumCents: 2500, expectedPayouts: 1, expectedCents: 9850, skipped: 0, skippedCents: 0, createdBy: null, createdAt: NOW });
      await addPendingPayouts(db, "run_1", [{ id: "payout_1", vendorId, vendorName: "Blue Heron Prints", destination: ACCOUNT, amountCents: 9850 }], NOW);
      await markPayoutProcessing(db, "payout_1", NOW);
      await received(await deliverStripe(ctx, stripeEvent("transfer.reversed", stripeTransfer("tr_late", 9850, 9850, { payout_id: "payout_1" }), { id: "evt_early_reversal", created: NOW })));
      const w = worker();
      for (let i = 0; i < 20 && (await eventRow("evt_early_reversal")).status === "pending"; i++) {
        await w.runOnce();
        // Past the next attempt's back-off (1 s, doubled each attempt here), within the admin's session.
        ctx.clock.advance(70_000);
      }
      const failed = await eventRow("evt_early_reversal");
      expect(failed).toMatchObject({ status: "failed", attempts: 8 });
      expect(failed.outcome).toContain("payout_1 has no transfer recorded yet");
      const listed = await incoming("?outcome=failed");
      expect(listed.items).toEqual([
        expect.objectContaining({ id: failed.id, source: "stripe", eventId: "evt_early_reversal", type: "transfer.reversed", outcome: "failed", retryable: true, attempts: 8 }),
      ]);

      // Once the payout is recorded as paid, an operator's retry applies it (audited); a processed event cannot be retried.
      await markPayoutPaid(db, "payout_1", "tr_late", NOW);
      expect(await balanceRow()).toBeUndefined();
      const retry = await ctx.request(`/api/admin/integrations/incoming-events/${failed.id}/retry`, { method: "POST", token: admin.token, headers: { "x-request-id": "retry-1" } });
      expect(retry.status, await retry.clone().text()).toBe(200);
      expect(await ctx.database.db.selectFrom("audit_log").select(["action", "target_id"]).where("request_id", "=", "retry-1").execute()).toEqual([
        { action: "incoming_event.retry", target_id: failed.id },
      ]);
      await drain();
      expect(await eventRow("evt_early_reversal")).toMatchObject({ status: "processed" });
      expect((await balanceRow())?.balance).toBe(98.5);
      expect((await ctx.request(`/api/admin/integrations/incoming-events/${failed.id}/retry`, { method: "POST", token: admin.token })).status).toBe(409);
      expect((await ctx.request(`/api/admin/integrations/incoming-events/nope/retry`, { method: "POST", token: admin.token })).status).toBe(404);
      expect(await compareRollups(ctx.database.db)).toEqual([]);
    });

    it("other types are stored and ignored, and every event shows on the Integrations screen's log", async () => {
      await received(await deliverStripe(ctx, stripeEvent("charge.succeeded", { id: "ch_1", object: "charge", amount: 100 }, { id: "evt_charge", created: NOW })));
      await received(await deliverStripe(ctx, stripeEvent("account.updated", stripeAccount("acct_nobody", { chargesEnabled: true, payoutsEnabled: true }), { id: "evt_stranger", created: NOW })));
      await drain();
      expect(await eventRow("evt_charge")).toMatchObject({ status: "ignored", outcome: "The panel does not act on charge.succeeded" });
      expect(await eventRow("evt_stranger")).toMatchObject({ status: "ignored", outcome: "No artist is paid to acct_nobody" });
      const log = await incoming("?source=stripe");
      expect(log.items.map((e) => [e.eventId, e.outcome])).toEqual(
        expect.arrayContaining([
          ["evt_charge", "ignored"],
          ["evt_stranger", "ignored"],
        ]),
      );
      expect((await incoming("?source=clerk")).items).toEqual([]);
    });
  });

  describe("Clerk", () => {
    /** A staff member whose account is at Clerk (under Clerk a user's id is Clerk's), with an open session here. */
    async function clerkStaff(): Promise<string> {
      const now = ctx.clock.now().toISOString();
      await ctx.database.db
        .insertInto("users")
        .values({ id: CLERK_STAFF, email: "viewer@staff.example", name: "Val", role: "viewer", password_hash: null, created_at: now, updated_at: now })
        .execute();
      const token = randomBytes(32).toString("base64url");
      await ctx.database.db
        .insertInto("sessions")
        .values({ id: sessionIdForToken(token), user_id: CLERK_STAFF, created_at: now, expires_at: new Date(ctx.clock.now().getTime() + 3_600_000).toISOString(), revoked_at: null })
        .execute();
      return token;
    }

    it("user.updated keeps staff and artists' e-mails current; an older update delivered later changes nothing", async () => {
      await clerkStaff();
      await received(await deliverClerk(ctx, clerkEvent("user.updated", clerkUser(CLERK_ARTIST, "Ada@NewHeron.example", "2026-11-22T11:30:00.000Z"), NOW)));
      await received(await deliverClerk(ctx, clerkEvent("user.updated", clerkUser(CLERK_STAFF, "val@staff.example", "2026-11-22T11:30:00.000Z"), NOW)));
      await drain();
      const vendor = await ctx.database.db.selectFrom("vendors").select("email").where("id", "=", vendorId).executeTakeFirstOrThrow();
      expect(vendor.email).toBe("ada@newheron.example");
      const staff = await ctx.database.db.selectFrom("users").select("email").where("id", "=", CLERK_STAFF).executeTakeFirstOrThrow();
      expect(staff.email).toBe("val@staff.example");

      await received(await deliverClerk(ctx, clerkEvent("user.updated", clerkUser(CLERK_ARTIST, "ada@old.example", "2026-11-22T11:00:00.000Z"), NOW), "msg_older_update"));
      await drain();
      expect((await ctx.database.db.selectFrom("vendors").select("email").where("id", "=", vendorId).executeTakeFirstOrThrow()).email).toBe("ada@newheron.example");
      expect(await eventRow("msg_older_update")).toMatchObject({ status: "stale" });
      const audit = await ctx.database.db.selectFrom("audit_log").select(["actor_email", "action"]).where("action", "in", ["user.email_change", "vendor.email_change"]).orderBy("action").execute();
      expect(audit).toEqual([
        { actor_email: "system", action: "user.email_change" },
        { actor_email: "system", action: "vendor.email_change" },
      ]);
    });

    it("user.deleted ends a staff member's access (sessions revoked, audited as the system's) and puts the artist in the attention inbox", async () => {
      const token = await clerkStaff();
      expect((await ctx.request("/api/auth/me", { token })).status).toBe(200);
      const deleted = (id: string) => clerkEvent("user.deleted", { id, object: "user", deleted: true }, NOW);
      expect(await received(await deliverClerk(ctx, deleted(CLERK_STAFF), "msg_staff_deleted"))).toEqual({ received: true, duplicate: false });
      expect(await received(await deliverClerk(ctx, deleted(CLERK_STAFF), "msg_staff_deleted"))).toEqual({ received: true, duplicate: true });
      await received(await deliverClerk(ctx, deleted(CLERK_ARTIST)));
      await drain();

      expect((await ctx.request("/api/auth/me", { token })).status).toBe(401);
      const staff = await ctx.database.db.selectFrom("users").select("role").where("id", "=", CLERK_STAFF).executeTakeFirstOrThrow();
      expect(staff.role).toBe("user");
      const audit = await ctx.database.db.selectFrom("audit_log").select(["actor_email", "actor_id", "action", "target_id", "details"]).where("action", "=", "user.access_remove").execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actor_email: "system", actor_id: null, target_id: CLERK_STAFF });
      expect(JSON.parse(audit[0]!.details)).toMatchObject({ source: "clerk", sessionsRevoked: 1 });

      const attention = await get("/api/admin/dashboard/attention", attentionResponseSchema);
      expect(attention.items.find((i) => i.key === "owner_accounts_deleted")).toMatchObject({ count: 1, href: `/vendors/${vendorId}`, severity: "warning" });
      // Disabling the artist settles it.
      expect((await ctx.request(`/api/vendors/${vendorId}/status`, { method: "PATCH", token: admin.token, json: { isActive: false, reason: "Orders not shipped" } })).status).toBe(200);
      expect((await get("/api/admin/dashboard/attention", attentionResponseSchema)).items.find((i) => i.key === "owner_accounts_deleted")).toBeUndefined();

      // An update made before the deletion, delivered after it, changes nothing.
      await received(await deliverClerk(ctx, clerkEvent("user.updated", clerkUser(CLERK_STAFF, "back@staff.example", "2026-11-22T11:59:00.000Z"), "2026-11-22T11:59:00.000Z"), "msg_late_update"));
      await drain();
      expect(await eventRow("msg_late_update")).toMatchObject({ status: "stale" });
    });
  });

  it("settled events are deleted after 35 days by the retention sweep; pending and failed ones stay until settled", async () => {
    const at = (daysAgo: number) => new Date(Date.parse(NOW) - daysAgo * 86_400_000).toISOString();
    const row = (id: string, status: "processed" | "ignored" | "failed" | "pending", daysAgo: number) => ({
      id,
      source: "stripe" as const,
      event_id: `evt_${id}`,
      type: "charge.succeeded",
      object_id: null,
      occurred_at: at(daysAgo),
      payload: "{}",
      status,
      outcome: null,
      attempts: 1,
      received_at: at(daysAgo),
      processed_at: status === "pending" ? null : at(daysAgo),
    });
    await ctx.database.db
      .insertInto("incoming_events")
      .values([row("old_processed", "processed", 40), row("old_ignored", "ignored", 36), row("old_failed", "failed", 40), row("old_pending", "pending", 40), row("recent", "processed", 34)])
      .execute();
    expect((await sweepIncomingEvents(ctx.database.db, ctx.clock)).deleted).toBe(2);
    const left = await ctx.database.db.selectFrom("incoming_events").select("id").orderBy("id").execute();
    expect(left.map((r) => r.id)).toEqual(["old_failed", "old_pending", "recent"]);
  });

  it("the log lists storefront, Stripe and Clerk events together, newest first, by keyset pages, filtered by source and outcome", async () => {
    const key = (await ctx.createApiKey()).key;
    const send = await ctx.request("/api/events", {
      method: "POST",
      token: key,
      json: { events: [event("artist.created", artist("sf_artist"), NOW, "sf_1")] },
    });
    expect(send.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      ctx.clock.advance(1_000);
      await received(await deliverStripe(ctx, stripeEvent("charge.refunded", { id: `ch_${i}`, object: "charge" }, { id: `evt_log_${i}`, created: NOW })));
    }
    ctx.clock.advance(1_000);
    await received(await deliverClerk(ctx, clerkEvent("session.created", { id: "sess_1", object: "session" }, NOW), "msg_log"));
    await drain();

    const first = await incoming("?limit=3");
    expect(first.items.map((e) => [e.source, e.eventId])).toEqual([
      ["clerk", "msg_log"],
      ["stripe", "evt_log_2"],
      ["stripe", "evt_log_1"],
    ]);
    const second = await incoming(`?limit=3&cursor=${first.nextCursor}`);
    expect(second.items.map((e) => [e.source, e.eventId, e.outcome])).toEqual([
      ["stripe", "evt_log_0", "ignored"],
      ["storefront", "sf_1", "processed"],
    ]);
    expect(second.nextCursor).toBeNull();
    expect((await incoming("?source=storefront")).items.map((e) => e.eventId)).toEqual(["sf_1"]);
    expect((await incoming("?outcome=ignored")).items.map((e) => e.eventId)).toEqual(["msg_log", "evt_log_2", "evt_log_1", "evt_log_0"]);
    expect((await incoming("?source=clerk&outcome=processed")).items).toEqual([]);
    const bad = await ctx.request("/api/admin/integrations/incoming-events?source=paypal", { token: admin.token });
    expect(bad.status).toBe(400);
  });
});
