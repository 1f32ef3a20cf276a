import fc from "fast-check";
import { type Kysely, PostgresAdapter } from "kysely";
import type { DB } from "../../platform/db/schema.ts";
import { writeSettings } from "../settings/settings.queries.ts";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../platform/clock.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { cancelOrder, placeOrder, refundOrder } from "./orders.ts";
import { LedgerError } from "./ledger-error.ts";
import {
  addPendingPayouts,
  cancelPayout,
  finishPayoutRun,
  insertPayoutRun,
  markPayoutFailed,
  markPayoutPaid,
  markPayoutProcessing,
  markPayoutUnknown,
  markUnknownPayoutAbsent,
  retryFailedPayout,
  setPayoutAccount,
} from "./payouts.ts";
import { rollPeriodWindows } from "./period-totals.ts";
import { recountVendorsOverProductLimit } from "./product-limit.ts";
import { createProduct, moderateProducts, setProductStatus } from "./products.ts";
import { compareRollups } from "./recompute.ts";
import { cancelSubscription, startSubscription } from "./subscriptions.ts";
import { testBackends } from "../../testing/test-databases.ts";
import { createVendor, deleteVendorCascade, setVendorActive } from "./vendors.ts";
import { recordVisits } from "./visits.ts";

/**
 * After any mix of ledger writes, the incremental rollups and counters equal a recomputation
 * from the raw rows. Commands pick their targets by index among what exists, so every
 * generated sequence is meaningful whatever was deleted before.
 */
const DAY0 = Date.UTC(2026, 0, 1);
const time = (minute: number) => new Date(DAY0 + minute * 60_000).toISOString();

type Command =
  | { op: "vendor"; active: boolean; internal: boolean; minute: number; connected: boolean }
  | { op: "product"; pick: number; listed: boolean; price: number; minute: number }
  | { op: "order"; pick: number; quantity: number; rate: number; minute: number }
  | { op: "refund" | "cancel"; pick: number }
  | { op: "active"; pick: number; active: boolean }
  | { op: "status"; pick: number; listed: boolean }
  | { op: "delete"; pick: number }
  | { op: "subscribe"; pick: number; fee: number }
  | { op: "unsubscribe"; pick: number }
  | { op: "visits"; pick: number; day: number; count: number }
  | { op: "account"; pick: number; status: "active" | "pending" | "restricted" | "not_connected" }
  | { op: "run"; minimum: number; minute: number }
  | { op: "payout"; pick: number; outcome: "paid" | "failed" | "unknown" | "legacyUnknown"; minute: number }
  | { op: "settle"; pick: number; found: boolean; amountDelta: number; minute: number }
  | { op: "cancelPayout" | "retryPayout" | "endRun"; pick: number }
  | { op: "roll"; day: number }
  | { op: "moderate"; pick: number; count: number; hide: boolean }
  | { op: "limit"; limit: number };

const pick = fc.nat(1000);
// Minutes over ~5 days, so orders share days, day boundaries and sometimes an exact instant.
const minute = fc.integer({ min: 0, max: 7200 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant("vendor" as const), active: fc.boolean(), internal: fc.boolean(), minute, connected: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant("product" as const), pick, listed: fc.boolean(), price: fc.integer({ min: 0, max: 99_999 }), minute }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant("order" as const), pick, quantity: fc.integer({ min: 1, max: 5 }), rate: fc.constantFrom(150, 100, 275), minute }), weight: 6 },
  fc.record({ op: fc.constantFrom("refund" as const, "cancel" as const), pick }),
  fc.record({ op: fc.constant("active" as const), pick, active: fc.boolean() }),
  fc.record({ op: fc.constant("status" as const), pick, listed: fc.boolean() }),
  fc.record({ op: fc.constant("delete" as const), pick }),
  fc.record({ op: fc.constant("subscribe" as const), pick, fee: fc.constantFrom(2999, 1999) }),
  fc.record({ op: fc.constant("unsubscribe" as const), pick }),
  fc.record({ op: fc.constant("visits" as const), pick, day: fc.integer({ min: 0, max: 5 }), count: fc.integer({ min: 0, max: 50 }) }),
  // Payouts (docs/product.md §15): accounts change status, runs take balances into flight,
  // payouts are sent, paid, failed, canceled and retried, in any order.
  {
    arbitrary: fc.record({
      op: fc.constant("account" as const),
      pick,
      status: fc.constantFrom("active" as const, "active" as const, "pending" as const, "restricted" as const, "not_connected" as const),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ op: fc.constant("run" as const), minimum: fc.constantFrom(0, 1, 2500), minute }), weight: 3 },
  {
    arbitrary: fc.record({
      op: fc.constant("payout" as const),
      pick,
      outcome: fc.constantFrom("paid" as const, "paid" as const, "failed" as const, "unknown" as const, "legacyUnknown" as const),
      minute,
    }),
    weight: 6,
  },
  // Unknown outcomes settled by Stripe's list: found (with Stripe's amount, which may differ) or absent.
  { arbitrary: fc.record({ op: fc.constant("settle" as const), pick, found: fc.boolean(), amountDelta: fc.constantFrom(0, 0, 0, 1, -1, 250), minute }), weight: 2 },
  fc.record({ op: fc.constantFrom("cancelPayout" as const, "retryPayout" as const, "endRun" as const), pick }),
  // The top lists' rolling windows move forward (docs/decisions/0013-top-lists.md), by a day or past a whole window.
  { arbitrary: fc.record({ op: fc.constant("roll" as const), day: fc.integer({ min: 0, max: 12 }) }), weight: 2 },
  // Moderation (docs/product.md §16): products hidden and restored in bulk, and a product limit small
  // enough that vendors cross it both ways.
  { arbitrary: fc.record({ op: fc.constant("moderate" as const), pick, count: fc.integer({ min: 1, max: 4 }), hide: fc.boolean() }), weight: 3 },
  fc.record({ op: fc.constant("limit" as const), limit: fc.integer({ min: 1, max: 3 }) }),
);

/** A platform with sales to start from, so the payout commands that follow have balances to pay. */
const setup: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ op: fc.constant("vendor" as const), active: fc.constant(true), internal: fc.constant(false), minute, connected: fc.boolean() }),
  fc.record({ op: fc.constant("product" as const), pick, listed: fc.constant(true), price: fc.integer({ min: 100, max: 99_999 }), minute }),
  { arbitrary: fc.record({ op: fc.constant("order" as const), pick, quantity: fc.integer({ min: 1, max: 5 }), rate: fc.constantFrom(150, 100, 275), minute }), weight: 2 },
);

async function ids(db: Executor, table: "vendors" | "products" | "orders" | "subscriptions", paidOnly = false): Promise<string[]> {
  let q = db.selectFrom(table).select("id").orderBy("id");
  if (paidOnly) q = q.where("status" as never, "=", "paid" as never);
  return (await q.execute()).map((r) => r.id);
}

const at = <T>(list: T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);

async function run(db: Executor, cmd: Command, n: number): Promise<void> {
  const clock = fixedClock(time(8000));
  switch (cmd.op) {
    case "vendor":
      await createVendor(
        db,
        {
          name: `V${n}`,
          ownerName: "O",
          email: `v${n}@x.com`,
          slug: `v-${n}`,
          isActive: cmd.active,
          isInternal: cmd.internal,
          joinedAt: time(cmd.minute),
          ...(cmd.connected ? { payoutAccount: { stripeAccountId: `acct_v${n}`, status: "active" as const } } : {}),
        },
        clock,
      );
      return;
    case "product": {
      const v = at(await ids(db, "vendors"), cmd.pick);
      if (v) await createProduct(db, { vendorId: v, name: `P${n}`, priceCents: cmd.price, status: cmd.listed ? "listed" : "draft", createdAt: time(cmd.minute) }, clock);
      return;
    }
    case "order": {
      const p = at(await ids(db, "products"), cmd.pick);
      if (!p) return;
      const row = await db.selectFrom("products").select("vendor_id").where("id", "=", p).executeTakeFirstOrThrow();
      await placeOrder(db, { vendorId: row.vendor_id, productId: p, quantity: cmd.quantity, feeRateBasisPoints: cmd.rate, createdAt: time(cmd.minute) }, clock);
      return;
    }
    case "refund":
    case "cancel": {
      const o = at(await ids(db, "orders", true), cmd.pick);
      if (o) await (cmd.op === "refund" ? refundOrder : cancelOrder)(db, o, clock);
      return;
    }
    case "active": {
      const v = at(await ids(db, "vendors"), cmd.pick);
      if (v) await setVendorActive(db, v, cmd.active, clock);
      return;
    }
    case "status": {
      const p = at(await ids(db, "products"), cmd.pick);
      if (p) await setProductStatus(db, p, cmd.listed ? "listed" : "draft");
      return;
    }
    case "delete": {
      const v = at(await ids(db, "vendors"), cmd.pick);
      // Refused while a payout to the vendor is being sent; then nothing at all is deleted.
      if (v)
        await deleteVendorCascade(db, v).catch((err: unknown) => {
          if (!(err instanceof LedgerError)) throw err;
        });
      return;
    }
    case "subscribe": {
      const v = at(await ids(db, "vendors"), cmd.pick);
      if (v) await startSubscription(db, { vendorId: v, plan: "artist-monthly", monthlyFeeCents: cmd.fee }, clock);
      return;
    }
    case "unsubscribe": {
      const s = at(await ids(db, "subscriptions"), cmd.pick);
      if (s) await cancelSubscription(db, s, clock);
      return;
    }
    case "visits": {
      const v = at(await ids(db, "vendors"), cmd.pick);
      if (v) await recordVisits(db, v, time(cmd.day * 1440).slice(0, 10), cmd.count);
      return;
    }
    case "account": {
      const v = at(await ids(db, "vendors"), cmd.pick);
      if (v) {
        const stripeAccountId = cmd.status === "not_connected" ? null : `acct_${v.slice(-8)}`;
        await setPayoutAccount(db, v, {
          stripeAccountId,
          status: cmd.status,
          chargesEnabled: cmd.status === "active",
          payoutsEnabled: cmd.status === "active",
          requirements: null,
          checkedAt: time(cmd.pick),
        });
      }
      return;
    }
    case "run": {
      const runId = `run-${n}`;
      // The previous run ends first (as a finished job would), whatever its payouts' states.
      for (const r of await db.selectFrom("payout_runs").select("id").where("active", "=", 1).execute()) await finishPayoutRun(db, r.id, "completed", time(cmd.minute));
      if (!(await insertPayoutRun(db, { id: runId, minimumCents: cmd.minimum, expectedPayouts: 0, expectedCents: 0, skipped: 0, skippedCents: 0, createdBy: null, createdAt: time(cmd.minute) })))
        return;
      const eligible = await db
        .selectFrom("payout_accounts")
        .innerJoin("vendors", "vendors.id", "payout_accounts.vendor_id")
        .select(["vendor_id", "vendors.name", "stripe_account_id", "balance_cents"])
        .where("status", "=", "active")
        .where("balance_cents", ">=", Math.max(1, cmd.minimum))
        .execute();
      await addPendingPayouts(
        db,
        runId,
        eligible.map((a, k) => ({ id: `${runId}-p${k}`, vendorId: a.vendor_id, vendorName: a.name, destination: a.stripe_account_id ?? "acct_x", amountCents: Number(a.balance_cents) })),
        time(cmd.minute),
      );
      return;
    }
    case "payout": {
      const p = at(await db.selectFrom("payouts").select(["id", "status"]).where("status", "in", ["pending", "processing"]).orderBy("id").execute(), cmd.pick);
      if (!p) return;
      if (p.status === "pending") await markPayoutProcessing(db, p.id, time(cmd.minute));
      else if (cmd.outcome === "paid") await markPayoutPaid(db, p.id, `tr_${n}`, time(cmd.minute));
      else if (cmd.outcome === "unknown") await markPayoutUnknown(db, p.id, "An unknown error occurred while processing your request", time(cmd.minute));
      else await markPayoutFailed(db, p.id, "Your destination account needs to have at least one of the following capabilities enabled: transfers", cmd.outcome === "legacyUnknown", time(cmd.minute));
      return;
    }
    case "settle": {
      const p = at(await db.selectFrom("payouts").select(["id", "amount_cents", "attempt", "state_version"]).where("status", "=", "unknown").orderBy("id").execute(), cmd.pick);
      if (!p) return;
      if (cmd.found) await markPayoutPaid(db, p.id, `tr_${n}`, time(cmd.minute), Math.max(1, Number(p.amount_cents) + cmd.amountDelta));
      else await markUnknownPayoutAbsent(db, p.id, { attempt: p.attempt, stateVersion: p.state_version }, "Stripe has no transfer for this payout", time(cmd.minute));
      return;
    }
    case "cancelPayout":
    case "retryPayout": {
      const status = cmd.op === "cancelPayout" ? "pending" : "failed";
      const p = at(
        (await db.selectFrom("payouts").select("id").where("status", "=", status).orderBy("id").execute()).map((r) => r.id),
        cmd.pick,
      );
      if (!p) return;
      if (cmd.op === "cancelPayout") await cancelPayout(db, p, time(7000));
      else
        await retryFailedPayout(db, p, time(7000)).catch((err: unknown) => {
          if (!(err instanceof LedgerError)) throw err;
        });
      return;
    }
    case "roll":
      // Small chunks, so a day's step runs in several (period-totals.ts) and must still add up exactly.
      await rollPeriodWindows(db, time(cmd.day * 1440).slice(0, 10), { chunkRows: 1 + (cmd.day % 3), pace: "request" });
      return;
    case "moderate": {
      const from = cmd.hide ? "listed" : "hidden";
      const candidates = (await db.selectFrom("products").select("id").where("status", "=", from).orderBy("id").execute()).map((r) => r.id);
      const chosen = Array.from({ length: cmd.count }, (_, k) => at(candidates, cmd.pick + k)).filter((id): id is string => id !== undefined);
      if (chosen.length > 0)
        await moderateProducts(db, chosen, { status: cmd.hide ? "hidden" : "listed", reason: cmd.hide ? `Reason ${n}` : null, actor: { id: null, email: "moderator@x.com" } }, clock);
      return;
    }
    case "limit":
      // As the settings service saves it: the setting, then the recount in the same transaction.
      await (db as Kysely<DB>).transaction().execute(async (trx) => {
        await writeSettings(trx, db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite", new Map([["max_products_per_vendor", String(cmd.limit)]]), "admin@x.com", time(7000));
        await recountVendorsOverProductLimit(trx);
      });
      return;
    case "endRun": {
      const r = at(
        (await db.selectFrom("payout_runs").select("id").where("active", "=", 1).execute()).map((x) => x.id),
        cmd.pick,
      );
      if (r) await finishPayoutRun(db, r, "completed", time(7000));
      return;
    }
  }
}

describe.each(testBackends())("ledger rollups property on $kind", (backend) => {
  it("incremental rollups and counters always equal a recomputation from raw rows", { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(fc.array(setup, { minLength: 4, maxLength: 15 }), fc.array(command, { minLength: 1, maxLength: 40 })), async ([prefix, rest]) => {
        const commands: Command[] = [...prefix, { op: "run", minimum: 0, minute: 7100 }, ...rest];
        const t = await backend.open();
        try {
          for (const [n, cmd] of commands.entries()) await run(t.db, cmd, n);
          expect(await compareRollups(t.db)).toEqual([]);
        } finally {
          await t.close();
        }
      }),
      { numRuns: backend.kind === "sqlite" ? 50 : 15 },
    );
  });
});
