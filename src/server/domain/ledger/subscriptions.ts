import type { Selectable } from "kysely";
import type { Clock } from "../../platform/clock.ts";
import { newId } from "../../platform/db/ids.ts";
import type { SubscriptionsTable } from "../../platform/db/schema.ts";
import { COUNTERS, incrementCounters } from "./counters.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { dayOf, isoTime, isoTimeOrNow, LedgerError, requireNonNegativeInteger } from "./ledger-error.ts";
import { addToDailyPlatformTotals } from "./rollups.ts";
import { requireVendor } from "./vendors.ts";

export type Subscription = Selectable<SubscriptionsTable>;

export interface StartSubscriptionInput {
  id?: string;
  vendorId: string;
  plan: string;
  /** What the vendor pays each month, in cents (the monthly_subscription_fee setting at sign-up). */
  monthlyFeeCents: number;
  startedAt?: Date | string;
  /** The storefront's subscription id and the end of the period paid (migration 023). */
  externalId?: string | null;
  currentPeriodEnd?: Date | string | null;
}

/** Starts an active subscription: counts it and adds its fee to mrr_cents. */
export async function startSubscription(db: Executor, input: StartSubscriptionInput, clock: Clock): Promise<Subscription> {
  requireNonNegativeInteger(input.monthlyFeeCents, "monthlyFeeCents");
  const sub: Subscription = {
    id: input.id ?? newId(),
    vendor_id: input.vendorId,
    plan: input.plan,
    monthly_fee_cents: input.monthlyFeeCents,
    status: "active",
    started_at: isoTimeOrNow(input.startedAt, clock),
    cancelled_at: null,
    external_id: input.externalId ?? null,
    current_period_end: input.currentPeriodEnd == null ? null : isoTime(input.currentPeriodEnd),
  };
  return inTransaction(db, async (trx) => {
    await requireVendor(trx, sub.vendor_id);
    await trx.insertInto("subscriptions").values(sub).execute();
    await incrementCounters(trx, { [COUNTERS.subscriptionsActive]: 1, [COUNTERS.mrrCents]: sub.monthly_fee_cents });
    // The day's change of recurring revenue (the overview's subscription revenue reads it).
    await addToDailyPlatformTotals(trx, dayOf(sub.started_at), { mrrChangeCents: sub.monthly_fee_cents });
    return sub;
  });
}

/** Cancels an active subscription (a cancelled one is returned unchanged); null for an unknown id. */
export async function cancelSubscription(db: Executor, subscriptionId: string, clock: Clock, cancelledAt?: Date | string): Promise<Subscription | null> {
  return inTransaction(db, async (trx) => {
    const sub = await trx.selectFrom("subscriptions").selectAll().where("id", "=", subscriptionId).executeTakeFirst();
    if (!sub) return null;
    if (sub.status !== "active") return sub;
    const at = isoTimeOrNow(cancelledAt, clock);
    await trx.updateTable("subscriptions").set({ status: "cancelled", cancelled_at: at }).where("id", "=", subscriptionId).execute();
    await incrementCounters(trx, { [COUNTERS.subscriptionsActive]: -1, [COUNTERS.mrrCents]: -Number(sub.monthly_fee_cents) });
    await addToDailyPlatformTotals(trx, dayOf(at), { mrrChangeCents: -Number(sub.monthly_fee_cents) });
    return { ...sub, status: "cancelled", cancelled_at: at };
  });
}

/**
 * Moves the end of the period an active subscription is paid up to (a renewal at the same fee):
 * no figure depends on it. invalid_state for a subscription that is not active.
 */
export async function extendSubscriptionPeriod(db: Executor, subscriptionId: string, periodEnd: Date | string): Promise<void> {
  const end = isoTime(periodEnd);
  const updated = await db
    .updateTable("subscriptions")
    .set({ current_period_end: end })
    .where("id", "=", subscriptionId)
    .where("status", "=", "active")
    .where((eb) => eb.or([eb("current_period_end", "is", null), eb("current_period_end", "<", end)]))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    const row = await db.selectFrom("subscriptions").select("status").where("id", "=", subscriptionId).executeTakeFirst();
    if (!row || row.status !== "active") throw new LedgerError("invalid_state", `Subscription ${subscriptionId} is not active`);
  }
}
