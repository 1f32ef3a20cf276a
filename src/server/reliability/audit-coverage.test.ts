import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inviteResponseSchema } from "../../contract/admin-users.ts";
import type { PasskeyCreationOptions, PasskeyRequestOptions } from "../../contract/auth.ts";
import { SoftwareAuthenticator } from "../testing/software-authenticator.ts";
import { addPendingPayouts, markPayoutFailed, markPayoutProcessing, markPayoutUnknown } from "../domain/ledger/payouts.ts";
import { createVendor } from "../domain/ledger/vendors.ts";
import { markRefundUnknown, reserveRefund } from "../domain/ledger/refunds.ts";
import { createProduct } from "../domain/ledger/products.ts";
import { type AppRoute, appRoutes } from "../testing/app-routes.ts";
import { type FakeStripeServer, startFakeStripe } from "../testing/fake-stripe-server.ts";
import { TEST_PASSWORD, type TestContext, createTestContext, testDatabaseKinds } from "../testing/test-app.ts";

/**
 * Every admin action leaves exactly one audit row (docs/product.md §14.4): the mutating routes are
 * listed from the app itself, so a new route fails this test until it has a recipe here (how to
 * call it so that it changes something) and writes its row, or an entry in NOT_ADMIN_ACTIONS
 * saying why it is not an admin action.
 */

/** Mutating routes that are not admin actions, each with the reason. */
const NOT_ADMIN_ACTIONS: Record<string, string> = {
  // The private-beta gate checks a shared password; it changes nothing but its attempt counters.
  "POST /api/beta/verify": "the beta gate, not an action on data",
  // Ends the caller's own session; the session row itself records it (revoked_at).
  "POST /api/auth/sign-out": "ends one's own session",
  // Reads what an invitation grants before the accept form shows; writes nothing.
  "POST /api/auth/invitations/check": "reads only",
  // Writes one info entry to the error log on purpose (the hidden test page); no data changes.
  "POST /api/debug/test-error": "a deliberate error-log entry",
  // Renders an announcement and counts its audience; writes and sends nothing.
  "POST /api/admin/communications/preview": "reads only",
  // A service's storefront events, with an API key: no admin acts; each event is recorded in storefront_events.
  "POST /api/events": "a service's events (API key), recorded per event in storefront_events",
  // The providers' signed webhooks: no admin acts; each event is recorded in incoming_events, and what it changes is audited as the system's.
  "POST /api/webhooks/stripe": "Stripe's signed events, recorded in incoming_events",
  "POST /api/webhooks/clerk": "Clerk's signed events, recorded in incoming_events",
  // A passkey ceremony's options: a single-use challenge stored for 5 minutes; nothing else changes.
  "POST /api/auth/passkeys/registration-options": "starts a passkey ceremony (a challenge), changes nothing",
  "POST /api/auth/sign-in/passkey/options": "starts a passkey ceremony (a challenge), changes nothing",
  "POST /api/auth/sign-in/second-step/passkey/options": "starts a passkey ceremony (a challenge), changes nothing",
  "POST /api/auth/step-up/passkey/options": "starts a passkey ceremony (a challenge), changes nothing",
};

interface Call {
  path: string;
  json?: unknown;
  /** The bearer token to use; the admin's when absent, none when null. */
  token?: string | null;
}

type Recipe = (ctx: TestContext, admin: { token: string }) => Promise<Call>;

let sequence = 0;
const unique = (stem: string) => `${stem}-${++sequence}@example.com`;

async function anInvitation(ctx: TestContext, admin: { token: string }) {
  const res = await ctx.request("/api/admin/users/invite", { method: "POST", token: admin.token, json: { email: unique("invitee"), role: "viewer" } });
  expect(res.status).toBe(201);
  return inviteResponseSchema.parse(await res.json()).invitation;
}

/** A new artist whose application waits for a decision (docs/product.md §20.2). */
async function aPendingApplicant(ctx: TestContext): Promise<string> {
  const slug = unique("applicant")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
  return (await createVendor(ctx.database.db, { name: slug, ownerName: "Applicant", email: `${slug}@example.com`, slug, approvalStatus: "pending" }, ctx.clock)).id;
}

async function anActiveVendor(ctx: TestContext): Promise<string> {
  const row = await ctx.database.db.selectFrom("vendors").select("id").where("is_active", "=", 1).orderBy("id").limit(1).executeTakeFirstOrThrow();
  return row.id;
}

/** The demo's first active payout account that is owed money (payouts, docs/product.md §15). */
async function anOwedAccount(ctx: TestContext) {
  const row = await ctx.database.db
    .selectFrom("payout_accounts")
    .innerJoin("vendors", "vendors.id", "payout_accounts.vendor_id")
    .select(["vendor_id", "vendors.name", "stripe_account_id", "balance_cents"])
    .where("status", "=", "active")
    .where("balance_cents", ">", 100)
    .orderBy("vendor_id")
    .limit(1)
    .executeTakeFirstOrThrow();
  return { ...row, balance_cents: Number(row.balance_cents) };
}

/** A payout run to act on: the active one, or one started through the API (its audit row comes before counting). */
async function aPayoutRun(ctx: TestContext, admin: { token: string }): Promise<string> {
  const active = await ctx.database.db.selectFrom("payout_runs").select("id").where("active", "=", 1).executeTakeFirst();
  if (active) return active.id;
  const res = await ctx.request("/api/admin/financial/payouts/runs", { method: "POST", token: admin.token, json: {} });
  expect(res.status).toBe(201);
  return ((await res.json()) as { run: { id: string } }).run.id;
}

/** Listed products of the demo to moderate (docs/product.md §16). */
async function listedProducts(ctx: TestContext, n: number): Promise<string[]> {
  const rows = await ctx.database.db.selectFrom("products").select("id").where("status", "=", "listed").orderBy("id").limit(n).execute();
  expect(rows).toHaveLength(n);
  return rows.map((r) => r.id);
}

/** New listings waiting in the Review queue (docs/product.md §20.4), of the demo's first active artist. */
async function listingsWaitingReview(ctx: TestContext, n: number): Promise<string[]> {
  const vendorId = await anActiveVendor(ctx);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await createProduct(ctx.database.db, { vendorId, name: `Waiting ${++sequence}`, priceCents: 1000, status: "pending_review" }, ctx.clock)).id);
  return ids;
}

/** An announcement sent through the API (its audit row comes before counting; docs/product.md §17). */
async function anAnnouncement(ctx: TestContext, admin: { token: string }, channels: string[]): Promise<string> {
  const res = await ctx.request("/api/admin/communications/announcement", {
    method: "POST",
    token: admin.token,
    json: { title: `Coverage ${++sequence}`, message: "Hello", audience: "active", channels },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { announcement: { id: string } }).announcement.id;
}

let stripe: FakeStripeServer | undefined;

/** How to call each mutating route so that it really changes something (the setup's own rows come before counting). */
/** The code an authenticator app with this secret shows at the test clock's time. */
const codeNow = (ctx: TestContext, secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: ctx.clock.now().getTime() });

/** A staff member in the middle of setting up two-step sign-in: the secret is made, not confirmed yet. */
async function settingUpTwoStep(ctx: TestContext): Promise<{ id: string; email: string; token: string; secret: string }> {
  const user = await ctx.createUser({ email: unique("two-step"), role: "viewer" });
  const setup = await ctx.request("/api/auth/two-step/setup", { method: "POST", token: user.token });
  expect(setup.status, await setup.clone().text()).toBe(200);
  return { ...user, secret: ((await setup.json()) as { secret: string }).secret };
}

/** A staff member with two-step sign-in on; the clock moved past the code that confirmed it (a code is accepted once). */
async function withTwoStep(ctx: TestContext): Promise<{ id: string; email: string; token: string; secret: string }> {
  const user = await settingUpTwoStep(ctx);
  const confirm = await ctx.request("/api/auth/two-step/confirm", { method: "POST", token: user.token, json: { code: codeNow(ctx, user.secret) } });
  expect(confirm.status, await confirm.clone().text()).toBe(200);
  ctx.clock.advance(30_000);
  return user;
}

/** A staff member with one passkey, registered through the API with a software authenticator on the panel's origin. */
async function withPasskey(ctx: TestContext): Promise<{ id: string; email: string; token: string; passkeyId: string; authenticator: SoftwareAuthenticator }> {
  const user = await ctx.createUser({ email: unique("passkey"), role: "viewer" });
  const authenticator = new SoftwareAuthenticator(ctx.deps.config.publicUrl);
  const options = await ctx.request("/api/auth/passkeys/registration-options", { method: "POST", token: user.token });
  const registered = await ctx.request("/api/auth/passkeys", {
    method: "POST",
    token: user.token,
    json: { name: "Laptop", response: authenticator.register((await options.json()) as PasskeyCreationOptions) },
  });
  expect(registered.status, await registered.clone().text()).toBe(201);
  return { ...user, passkeyId: ((await registered.json()) as { id: string }).id, authenticator };
}

const RECIPES: Record<string, Recipe> = {
  "POST /api/admin/communications/announcement": async () => ({
    path: "/api/admin/communications/announcement",
    json: { title: "Coverage", message: "Hello", audience: "inactive", channels: ["email"] },
  }),
  "POST /api/admin/communications/announcements/:id/cancel": async (ctx, admin) => ({ path: `/api/admin/communications/announcements/${await anAnnouncement(ctx, admin, ["email"])}/cancel` }),
  "POST /api/admin/communications/announcements/:id/retry-failed": async (ctx, admin) => {
    const id = await anAnnouncement(ctx, admin, ["email"]);
    // One mail failed for good (as the sender records it: the recipient and the announcement's counts).
    const { db } = ctx.database;
    const one = await db.selectFrom("announcement_recipients").select("vendor_id").where("announcement_id", "=", id).limit(1).executeTakeFirstOrThrow();
    await db.updateTable("announcement_recipients").set({ status: "failed", last_error: "550 No such mailbox" }).where("announcement_id", "=", id).where("vendor_id", "=", one.vendor_id).execute();
    await db
      .updateTable("announcements")
      .set((eb) => ({ failed_count: eb("failed_count", "+", 1), pending_count: eb("pending_count", "-", 1) }))
      .where("id", "=", id)
      .execute();
    return { path: `/api/admin/communications/announcements/${id}/retry-failed` };
  },
  "DELETE /api/admin/communications/announcements/:id/dashboard": async (ctx, admin) => ({
    path: `/api/admin/communications/announcements/${await anAnnouncement(ctx, admin, ["dashboard"])}/dashboard`,
  }),
  "PATCH /api/admin/products/:id/status": async (ctx) => ({ path: `/api/admin/products/${(await listedProducts(ctx, 1))[0]}/status`, json: { status: "hidden", reason: "Coverage" } }),
  "POST /api/admin/products/:id/review": async (ctx) => ({
    path: `/api/admin/products/${(await listingsWaitingReview(ctx, 1))[0]}/review`,
    json: { decision: "reject", reason: "Coverage", infringement: true },
  }),
  "POST /api/admin/products/review/bulk-approve": async (ctx) => ({ path: "/api/admin/products/review/bulk-approve", json: { ids: await listingsWaitingReview(ctx, 2) } }),
  "PUT /api/admin/vendors/:id/trusted": async (ctx) => {
    const id = await anActiveVendor(ctx);
    const row = await ctx.database.db.selectFrom("vendors").select("trusted").where("id", "=", id).executeTakeFirstOrThrow();
    return { path: `/api/admin/vendors/${id}/trusted`, json: { trusted: row.trusted !== 1, reason: "Coverage" } };
  },
  "POST /api/admin/products/bulk-status": async (ctx) => ({ path: "/api/admin/products/bulk-status", json: { ids: await listedProducts(ctx, 3), status: "hidden", reason: "Coverage" } }),
  "POST /api/auth/sign-in": async (ctx) => {
    const email = unique("signs-in");
    await ctx.createUser({ email, role: "viewer" });
    return { path: "/api/auth/sign-in", json: { email, password: TEST_PASSWORD }, token: null };
  },
  "POST /api/auth/two-step/setup": async (ctx) => ({ path: "/api/auth/two-step/setup", token: (await ctx.createUser({ email: unique("sets-up"), role: "viewer" })).token }),
  "POST /api/auth/two-step/confirm": async (ctx) => {
    const user = await settingUpTwoStep(ctx);
    return { path: "/api/auth/two-step/confirm", json: { code: codeNow(ctx, user.secret) }, token: user.token };
  },
  "DELETE /api/auth/two-step": async (ctx) => {
    const user = await withTwoStep(ctx);
    return { path: "/api/auth/two-step", json: { code: codeNow(ctx, user.secret) }, token: user.token };
  },
  "POST /api/auth/sign-in/second-step": async (ctx) => {
    const user = await withTwoStep(ctx);
    const signIn = await ctx.request("/api/auth/sign-in", { method: "POST", json: { email: user.email, password: TEST_PASSWORD } });
    const { secondStep } = (await signIn.json()) as { secondStep: { challenge: string } };
    return { path: "/api/auth/sign-in/second-step", json: { challenge: secondStep.challenge, code: codeNow(ctx, user.secret) }, token: null };
  },
  "POST /api/auth/step-up": async (ctx) => {
    const user = await withTwoStep(ctx);
    return { path: "/api/auth/step-up", json: { code: codeNow(ctx, user.secret) }, token: user.token };
  },
  "POST /api/admin/users/:id/two-step/reset": async (ctx) => ({ path: `/api/admin/users/${(await withTwoStep(ctx)).id}/two-step/reset` }),
  "POST /api/auth/step-up/passkey": async (ctx) => {
    const user = await withPasskey(ctx);
    const options = await ctx.request("/api/auth/step-up/passkey/options", { method: "POST", token: user.token });
    return { path: "/api/auth/step-up/passkey", json: { response: user.authenticator.assert((await options.json()) as PasskeyRequestOptions) }, token: user.token };
  },
  "POST /api/auth/passkeys": async (ctx) => {
    const user = await ctx.createUser({ email: unique("adds-passkey"), role: "viewer" });
    const options = await ctx.request("/api/auth/passkeys/registration-options", { method: "POST", token: user.token });
    const response = new SoftwareAuthenticator(ctx.deps.config.publicUrl).register((await options.json()) as PasskeyCreationOptions);
    return { path: "/api/auth/passkeys", json: { name: "Laptop", response }, token: user.token };
  },
  "PATCH /api/auth/passkeys/:id": async (ctx) => {
    const user = await withPasskey(ctx);
    return { path: `/api/auth/passkeys/${user.passkeyId}`, json: { name: "Desk key" }, token: user.token };
  },
  "DELETE /api/auth/passkeys/:id": async (ctx) => {
    const user = await withPasskey(ctx);
    return { path: `/api/auth/passkeys/${user.passkeyId}`, token: user.token };
  },
  "POST /api/auth/sign-in/passkey": async (ctx) => {
    const user = await withPasskey(ctx);
    const options = await ctx.request("/api/auth/sign-in/passkey/options", { method: "POST" });
    return { path: "/api/auth/sign-in/passkey", json: { response: user.authenticator.assert((await options.json()) as PasskeyRequestOptions) }, token: null };
  },
  "POST /api/auth/sign-in/second-step/passkey": async (ctx) => {
    const user = await withPasskey(ctx);
    const signIn = await ctx.request("/api/auth/sign-in", { method: "POST", json: { email: user.email, password: TEST_PASSWORD } });
    const { secondStep } = (await signIn.json()) as { secondStep: { challenge: string } };
    const options = await ctx.request("/api/auth/sign-in/second-step/passkey/options", { method: "POST", json: { challenge: secondStep.challenge } });
    const response = user.authenticator.assert((await options.json()) as PasskeyRequestOptions);
    return { path: "/api/auth/sign-in/second-step/passkey", json: { challenge: secondStep.challenge, response }, token: null };
  },
  "PATCH /api/vendors/:id/status": async (ctx) => ({ path: `/api/vendors/${await anActiveVendor(ctx)}/status`, json: { isActive: false, reason: "Orders not shipped" } }),
  // Two active vendors and one already disabled: one audit row for the whole request (issue 23).
  "POST /api/admin/vendors/bulk-status": async (ctx) => {
    const rows = await ctx.database.db.selectFrom("vendors").select("id").orderBy("id", "desc").limit(3).execute();
    expect(rows).toHaveLength(3);
    return { path: "/api/admin/vendors/bulk-status", json: { ids: rows.map((r) => r.id), isActive: false, reason: "Orders not shipped" } };
  },
  "POST /api/admin/vendors/:id/application": async (ctx) => ({ path: `/api/admin/vendors/${await aPendingApplicant(ctx)}/application`, json: { decision: "reject", reason: "Coverage" } }),
  "POST /api/admin/vendors/applications/bulk-approve": async (ctx) => ({
    path: "/api/admin/vendors/applications/bulk-approve",
    json: { ids: [await aPendingApplicant(ctx), await aPendingApplicant(ctx)] },
  }),
  "DELETE /api/vendors/:id": async (ctx) => ({ path: `/api/vendors/${await anActiveVendor(ctx)}?action=delete`, json: { deleteFromClerk: false } }),
  "PUT /api/admin/settings": async () => ({ path: "/api/admin/settings", json: { announcement_message: `Coverage ${++sequence}` } }),
  // An export takes data out of the panel: who, which list, which filters, how many rows (issue 18, finding 9).
  "POST /api/admin/exports": async () => ({ path: "/api/admin/exports", json: { kind: "audit-log", filters: { action: "vendor.disable" } } }),
  "POST /api/admin/errors/archive-all": async () => ({ path: "/api/admin/errors/archive-all", json: { level: "info" } }),
  "POST /api/admin/errors/archive": async (ctx) => {
    const rows = await ctx.database.db.selectFrom("error_logs").select("id").where("archived", "=", 0).orderBy("id", "desc").limit(3).execute();
    expect(rows).toHaveLength(3);
    return { path: "/api/admin/errors/archive", json: { ids: rows.map((r) => r.id) } };
  },
  "POST /api/admin/errors/:id/archive": async (ctx) => {
    const row = await ctx.database.db.selectFrom("error_logs").select("id").where("archived", "=", 0).orderBy("id").limit(1).executeTakeFirstOrThrow();
    return { path: `/api/admin/errors/${row.id}/archive` };
  },
  "DELETE /api/admin/errors/cleanup-archived": async () => ({ path: "/api/admin/errors/cleanup-archived" }),
  "POST /api/admin/users/invite": async () => ({ path: "/api/admin/users/invite", json: { email: unique("new"), role: "admin" } }),
  // A Stripe event whose processing failed every attempt (as incoming-events.service.ts records it).
  "POST /api/admin/integrations/incoming-events/:id/retry": async (ctx) => {
    const id = `coverage-event-${++sequence}`;
    const at = ctx.clock.now().toISOString();
    await ctx.database.db
      .insertInto("incoming_events")
      .values({
        id,
        source: "stripe",
        event_id: `evt_${id}`,
        type: "transfer.reversed",
        object_id: null,
        occurred_at: at,
        payload: "{}",
        status: "failed",
        outcome: "boom",
        attempts: 8,
        received_at: at,
        processed_at: at,
      })
      .execute();
    return { path: `/api/admin/integrations/incoming-events/${id}/retry` };
  },
  "POST /api/admin/integrations/api-keys": async () => ({ path: "/api/admin/integrations/api-keys", json: { name: `Service ${++sequence}`, scopes: ["events:write"] } }),
  "DELETE /api/admin/integrations/api-keys/:id": async (ctx, admin) => {
    const res = await ctx.request("/api/admin/integrations/api-keys", { method: "POST", token: admin.token, json: { name: `Service ${++sequence}`, scopes: ["events:write"] } });
    expect(res.status).toBe(201);
    return { path: `/api/admin/integrations/api-keys/${((await res.json()) as { apiKey: { id: string } }).apiKey.id}` };
  },
  "POST /api/admin/integrations/webhooks": async () => ({ path: "/api/admin/integrations/webhooks", json: { url: `https://hooks.example.com/${++sequence}`, events: ["artist.deleted"] } }),
  "PATCH /api/admin/integrations/webhooks/:id": async (ctx, admin) => ({ path: `/api/admin/integrations/webhooks/${await aWebhookEndpoint(ctx, admin)}`, json: { enabled: false } }),
  "DELETE /api/admin/integrations/webhooks/:id": async (ctx, admin) => ({ path: `/api/admin/integrations/webhooks/${await aWebhookEndpoint(ctx, admin)}` }),
  "POST /api/admin/integrations/webhooks/:id/rotate-secret": async (ctx, admin) => ({ path: `/api/admin/integrations/webhooks/${await aWebhookEndpoint(ctx, admin)}/rotate-secret` }),
  "POST /api/admin/integrations/webhooks/:id/test": async (ctx, admin) => ({ path: `/api/admin/integrations/webhooks/${await aWebhookEndpoint(ctx, admin)}/test` }),
  "POST /api/admin/integrations/webhooks/:id/deliveries/:deliveryId/resend": async (ctx, admin) => {
    const id = await aWebhookEndpoint(ctx, admin);
    const res = await ctx.request(`/api/admin/integrations/webhooks/${id}/test`, { method: "POST", token: admin.token });
    expect(res.status).toBe(201);
    return { path: `/api/admin/integrations/webhooks/${id}/deliveries/${((await res.json()) as { delivery: { id: string } }).delivery.id}/resend` };
  },
  "DELETE /api/admin/users/invitations/:id": async (ctx, admin) => ({ path: `/api/admin/users/invitations/${(await anInvitation(ctx, admin)).id}` }),
  "POST /api/admin/users/invitations/:id/resend": async (ctx, admin) => ({ path: `/api/admin/users/invitations/${(await anInvitation(ctx, admin)).id}/resend` }),
  "POST /api/auth/invitations/accept": async (ctx, admin) => {
    const link = (await anInvitation(ctx, admin)).link!;
    return { path: "/api/auth/invitations/accept", json: { token: new URL(link).searchParams.get("token"), name: "Covered", password: "a long enough passphrase" }, token: null };
  },
  "PATCH /api/admin/users/:id": async (ctx) => ({ path: `/api/admin/users/${(await ctx.createUser({ email: unique("viewer"), role: "viewer" })).id}`, json: { role: "admin" } }),
  "DELETE /api/admin/users/:id/access": async (ctx) => ({ path: `/api/admin/users/${(await ctx.createUser({ email: unique("viewer"), role: "viewer" })).id}/access` }),
  "DELETE /api/admin/users/:id/sessions": async (ctx) => ({ path: `/api/admin/users/${(await ctx.createUser({ email: unique("viewer"), role: "viewer" })).id}/sessions` }),
  "POST /api/admin/financial/payouts/runs": async (ctx) => {
    // One run at a time: end any earlier one first.
    await ctx.database.db.updateTable("payout_runs").set({ active: null, status: "completed" }).where("active", "=", 1).execute();
    return { path: "/api/admin/financial/payouts/runs", json: {} };
  },
  "POST /api/admin/financial/payouts/runs/:id/cancel": async (ctx, admin) => ({ path: `/api/admin/financial/payouts/runs/${await aPayoutRun(ctx, admin)}/cancel` }),
  "POST /api/admin/financial/payouts/:id/retry": async (ctx, admin) => {
    const runId = await aPayoutRun(ctx, admin);
    const a = await anOwedAccount(ctx);
    const id = `coverage-payout-${++sequence}`;
    const now = ctx.clock.now().toISOString();
    await addPendingPayouts(ctx.database.db, runId, [{ id, vendorId: a.vendor_id, vendorName: a.name, destination: a.stripe_account_id!, amountCents: Math.floor(a.balance_cents / 2) }], now);
    await markPayoutProcessing(ctx.database.db, id, now);
    await markPayoutFailed(ctx.database.db, id, "Your destination account needs to have at least one of the following capabilities enabled: transfers", false, now);
    return { path: `/api/admin/financial/payouts/${id}/retry` };
  },
  "POST /api/admin/financial/payouts/:id/check": async (ctx, admin) => {
    // A payout whose outcome is unknown; Stripe lists no transfer for it yet (it stays unknown, audited).
    const runId = await aPayoutRun(ctx, admin);
    const a = await ctx.database.db
      .selectFrom("payout_accounts")
      .innerJoin("vendors", "vendors.id", "payout_accounts.vendor_id")
      .select(["vendor_id", "vendors.name", "stripe_account_id", "balance_cents"])
      .where("status", "=", "active")
      .where("balance_cents", ">", 100)
      .where("vendor_id", "not in", (eb) => eb.selectFrom("payouts").select("payouts.vendor_id").where("payouts.run_id", "=", runId))
      .orderBy("vendor_id")
      .limit(1)
      .executeTakeFirstOrThrow();
    const id = `coverage-payout-${++sequence}`;
    const now = ctx.clock.now().toISOString();
    await addPendingPayouts(ctx.database.db, runId, [{ id, vendorId: a.vendor_id, vendorName: a.name, destination: a.stripe_account_id!, amountCents: Math.floor(Number(a.balance_cents) / 2) }], now);
    await markPayoutProcessing(ctx.database.db, id, now);
    await markPayoutUnknown(ctx.database.db, id, "An unknown error occurred while processing your request", now);
    return { path: `/api/admin/financial/payouts/${id}/check` };
  },
  "POST /api/admin/vendors/:id/payout-account/refresh": async (ctx) => {
    const a = await anOwedAccount(ctx);
    stripe!.accounts.set(a.stripe_account_id!, {
      id: a.stripe_account_id!,
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
      requirements: { currently_due: [], past_due: [], disabled_reason: null },
    });
    return { path: `/api/admin/vendors/${a.vendor_id}/payout-account/refresh` };
  },
  // A refund from the panel (docs/product.md "Refunds from the panel"): one dollar of a paid demo line, through the fake Stripe.
  "POST /api/admin/orders/:id/refunds": async (ctx) => {
    const line = await ctx.database.db
      .selectFrom("orders")
      .select("id")
      .where("status", "=", "paid")
      .where("payment_intent_id", "is not", null)
      .where("gross_cents", ">", 1_000)
      .where("refund_reserved_cents", "=", 0)
      .orderBy("id")
      .limit(1)
      .executeTakeFirstOrThrow();
    return { path: `/api/admin/orders/${line.id}/refunds`, json: { lines: [{ orderId: line.id, amountCents: 100 }], reason: "Coverage: one dollar back" } };
  },
  // 'Check with Stripe' on a refund whose outcome is unknown: Stripe lists none for it yet (it stays unknown, audited).
  "POST /api/admin/orders/refunds/:id/check": async (ctx) => {
    const line = await ctx.database.db
      .selectFrom("orders")
      .select(["id", "payment_intent_id", "external_order_id"])
      .where("status", "=", "paid")
      .where("payment_intent_id", "is not", null)
      .where("gross_cents", ">", 1_000)
      .where("refund_reserved_cents", "=", 0)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();
    const id = `coverage-refund-${++sequence}`;
    const now = ctx.clock.now().toISOString();
    await reserveRefund(ctx.database.db, {
      id,
      paymentIntentId: line.payment_intent_id!,
      externalOrderId: line.external_order_id,
      reason: "Coverage: an answer lost",
      createdBy: null,
      createdByEmail: "coverage@example.com",
      createdAt: now,
      lines: [{ orderId: line.id, amountCents: 100 }],
    });
    await markRefundUnknown(ctx.database.db, id, "An unknown error occurred while processing your request", now);
    return { path: `/api/admin/orders/refunds/${id}/check` };
  },
  // The featured artist (docs/product.md §18.1): an active artist that is not an internal store.
  "POST /api/admin/featured-artist": async (ctx) => ({ path: "/api/admin/featured-artist", json: { vendorId: await anArtistToFeature(ctx), duration: 7 } }),
  "DELETE /api/admin/featured-artist/current": async (ctx, admin) => {
    const res = await ctx.request("/api/admin/featured-artist", { method: "POST", token: admin.token, json: { vendorId: await anArtistToFeature(ctx), duration: 3 } });
    expect(res.status).toBe(201);
    return { path: "/api/admin/featured-artist/current" };
  },
};

/** A webhook endpoint made through the API (docs/integration.md "Webhooks"); its id. */
async function aWebhookEndpoint(ctx: TestContext, admin: { token: string }): Promise<string> {
  const res = await ctx.request("/api/admin/integrations/webhooks", { method: "POST", token: admin.token, json: { url: `https://hooks.example.com/${++sequence}`, events: ["artist.deleted"] } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { endpoint: { id: string } }).endpoint.id;
}

async function anArtistToFeature(ctx: TestContext): Promise<string> {
  const row = await ctx.database.db.selectFrom("vendors").select("id").where("is_active", "=", 1).where("is_internal", "=", 0).orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
  return row.id;
}

describe.each(testDatabaseKinds)("every admin action leaves exactly one audit row (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string; email: string };
  let mutating: AppRoute[];
  beforeAll(async () => {
    // Payout actions need a payment provider: the fake Stripe stands in.
    stripe = await startFakeStripe();
    ctx = await createTestContext(kind, { seedDemo: true, env: { STRIPE_SECRET_KEY: "sk_test_coverage0123456789", STRIPE_API_BASE: stripe.url } });
    admin = await ctx.createUser({ email: "coverage-admin@hki.global" });
    mutating = appRoutes(ctx.app).filter((r) => r.method !== "GET" && r.method !== "HEAD");
  });
  afterAll(async () => {
    await ctx.close();
    await stripe?.close();
  });

  const key = (r: AppRoute) => `${r.method} ${r.path}`;

  it("knows every mutating route the app serves: a recipe, or a reason it is not an admin action", () => {
    const unknown = mutating.map(key).filter((k) => !(k in RECIPES) && !(k in NOT_ADMIN_ACTIONS));
    expect(unknown, "add a recipe to RECIPES (and an audit row to the route), or a reason to NOT_ADMIN_ACTIONS").toEqual([]);
    const stale = [...Object.keys(RECIPES), ...Object.keys(NOT_ADMIN_ACTIONS)].filter((k) => !mutating.some((r) => key(r) === k));
    expect(stale, "entries for routes the app no longer serves").toEqual([]);
  });

  it("each route with a recipe writes one row, tied to its request", async () => {
    const missing: string[] = [];
    for (const route of mutating.filter((r) => key(r) in RECIPES)) {
      const call = await RECIPES[key(route)]!(ctx, admin);
      const requestId = `coverage-${sequence++}`;
      const before = await ctx.database.db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      const token = call.token === null ? undefined : (call.token ?? admin.token);
      const res = await ctx.request(call.path, { method: route.method, headers: { "x-request-id": requestId }, ...(token ? { token } : {}), ...(call.json !== undefined ? { json: call.json } : {}) });
      expect(res.status, `${key(route)}: ${await res.clone().text()}`).toBeLessThan(300);
      const after = await ctx.database.db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      const rows = await ctx.database.db.selectFrom("audit_log").select(["action", "request_id"]).where("request_id", "=", requestId).execute();
      if (Number(after.n) - Number(before.n) !== 1 || rows.length !== 1)
        missing.push(`${key(route)}: ${Number(after.n) - Number(before.n)} new rows, ${rows.length} with its request id (${rows.map((r) => r.action).join(", ")})`);
    }
    expect(missing).toEqual([]);
  });
});
