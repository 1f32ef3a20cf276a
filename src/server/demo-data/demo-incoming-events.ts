import type { Executor } from "../platform/db/executor.ts";
import type { IncomingEventSource, IncomingEventStatus } from "../platform/db/schema.ts";

const MINUTE_MS = 60_000;
/** The payout the failed reversal names: none of the demo's, so a retry records the event as ignored. */
const DEMO_UNSETTLED_PAYOUT = "0190c000-0000-7000-8000-000000000042";

/**
 * The demo's incoming events (docs/integration.md), so the Integrations screen's 'Incoming events'
 * is not empty after `npm start`: storefront events as POST /api/events records them, and Stripe's
 * and Clerk's webhooks with each outcome — processed, ignored, stale and one failed, which 'Retry'
 * processes again (it names a payout the demo does not have, so the retry finds nothing to change
 * and records it as ignored). The bodies are as the providers send them; nothing here
 * changes a figure.
 */
export async function seedDemoIncomingEvents(trx: Executor, options: { now: Date; account: { vendorName: string; stripeAccountId: string } | null }): Promise<number> {
  const t = options.now.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  const seconds = (ms: number) => Math.floor(ms / 1000);

  const storefront = [
    { id: "sf_demo_order_1042", type: "order.paid", status: "applied" as const, received_at: iso(t - 3 * MINUTE_MS) },
    { id: "sf_demo_visits_0917", type: "store.visits", status: "applied" as const, received_at: iso(t - 30 * MINUTE_MS) },
    { id: "sf_demo_artist_0311", type: "artist.updated", status: "stale" as const, received_at: iso(t - 95 * MINUTE_MS) },
  ];
  await trx
    .insertInto("storefront_events")
    .values(storefront.map((e) => ({ ...e, body_hash: "0".repeat(64), api_key_id: "0190a000-0000-7000-8000-00000000a001" })))
    .execute();

  const account = options.account ?? { vendorName: "an artist", stripeAccountId: "acct_1DemoAccount" };
  const event = (
    n: number,
    source: IncomingEventSource,
    eventId: string,
    type: string,
    objectId: string | null,
    agoMs: number,
    payload: unknown,
    status: IncomingEventStatus,
    outcome: string,
    attempts = 1,
  ) => ({
    id: `0190b000-0000-7000-8000-${String(n).padStart(12, "0")}`,
    source,
    event_id: eventId,
    type,
    object_id: objectId,
    occurred_at: iso(t - agoMs - 2_000),
    payload: JSON.stringify(payload),
    status,
    outcome,
    attempts,
    received_at: iso(t - agoMs),
    processed_at: iso(t - agoMs + 1_000),
  });
  const stripeEvent = (id: string, type: string, agoMs: number, object: Record<string, unknown>) => ({
    id,
    object: "event",
    api_version: "2025-10-29.clover",
    created: seconds(t - agoMs - 2_000),
    livemode: false,
    type,
    data: { object },
  });
  const accountObject = {
    id: account.stripeAccountId,
    object: "account",
    charges_enabled: true,
    payouts_enabled: true,
    details_submitted: true,
    requirements: { currently_due: [], past_due: [], disabled_reason: null },
  };
  const lostTransfer = { id: "tr_1DemoUnknownTransfer", object: "transfer", amount: 4200, amount_reversed: 4200, reversed: true, currency: "usd", metadata: { payout_id: DEMO_UNSETTLED_PAYOUT } };
  const rows = [
    event(
      1,
      "stripe",
      "evt_1DemoAccountUpdated",
      "account.updated",
      account.stripeAccountId,
      12 * MINUTE_MS,
      stripeEvent("evt_1DemoAccountUpdated", "account.updated", 12 * MINUTE_MS, accountObject),
      "processed",
      `${account.stripeAccountId} is active (${account.vendorName})`,
    ),
    event(
      2,
      "stripe",
      "evt_1DemoChargeSucceeded",
      "charge.succeeded",
      "ch_1DemoCharge",
      45 * MINUTE_MS,
      stripeEvent("evt_1DemoChargeSucceeded", "charge.succeeded", 45 * MINUTE_MS, { id: "ch_1DemoCharge", object: "charge", amount: 4500 }),
      "ignored",
      "The panel does not act on charge.succeeded",
    ),
    event(
      3,
      "stripe",
      "evt_1DemoOlderAccount",
      "account.updated",
      account.stripeAccountId,
      70 * MINUTE_MS,
      stripeEvent("evt_1DemoOlderAccount", "account.updated", 300 * MINUTE_MS, { ...accountObject, payouts_enabled: false }),
      "stale",
      `A newer state of ${account.stripeAccountId} is already stored`,
    ),
    event(
      4,
      "stripe",
      "evt_1DemoTransferReversed",
      "transfer.reversed",
      lostTransfer.id,
      150 * MINUTE_MS,
      stripeEvent("evt_1DemoTransferReversed", "transfer.reversed", 150 * MINUTE_MS, lostTransfer),
      "failed",
      `Payout ${DEMO_UNSETTLED_PAYOUT} has no transfer recorded yet; tried again once its outcome is settled`,
      8,
    ),
    event(
      5,
      "clerk",
      "msg_2DemoUserUpdated",
      "user.updated",
      "user_2DemoOwner",
      20 * MINUTE_MS,
      { object: "event", type: "user.updated", timestamp: t - 20 * MINUTE_MS - 2_000, data: { id: "user_2DemoOwner", object: "user", email_addresses: [], primary_email_address_id: null } },
      "ignored",
      "No staff member or artist has the account user_2DemoOwner",
    ),
    event(
      6,
      "clerk",
      "msg_2DemoSessionCreated",
      "session.created",
      "sess_2Demo",
      200 * MINUTE_MS,
      { object: "event", type: "session.created", timestamp: t - 200 * MINUTE_MS - 2_000, data: { id: "sess_2Demo", object: "session" } },
      "ignored",
      "The panel does not act on session.created",
    ),
  ];
  await trx.insertInto("incoming_events").values(rows).execute();
  return storefront.length + rows.length;
}
