import type { Kysely } from "kysely";

/**
 * The providers' own webhooks coming in (docs/integration.md "Stripe's and Clerk's webhooks"):
 * - `incoming_events`: every event Stripe or Clerk sent and the panel verified, once per provider
 *   and event id (a re-delivery finds its row and changes nothing), with the verified body, the
 *   object it is about and that object's time (the newest state of an object wins), and what
 *   processing it did (`pending` until the job ran: `processed`, `ignored`, `stale` or `failed`);
 *   listed on the Integrations screen's 'Incoming events' newest first, filtered by source and outcome;
 * - `incoming_versions`: per provider object ("clerk:user:<id>"), the time of the newest event
 *   applied to it, so an older event delivered late changes nothing (one conditional upsert: the
 *   check and the lock at once);
 * - `deleted_provider_accounts`: accounts the sign-in provider (Clerk) deleted, by user id: an
 *   artist whose owner's account is among them is shown in the attention inbox until an operator
 *   disables or deletes the artist;
 * - `payouts.reversed_cents`: what Stripe took back of a paid transfer (`transfer.reversed`): owed
 *   to the artist again, so it is in the balance and out of "paid out" (ledger/payouts.ts);
 *   `payouts_transfer_idx` finds a payout by its transfer, `payout_accounts_stripe_idx` an
 *   account by Stripe's id;
 * - `storefront_events_status_idx`: the storefront's events (migration 023) listed by outcome.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("incoming_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("object_id", "text")
    .addColumn("occurred_at", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("outcome", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("received_at", "text", (c) => c.notNull())
    .addColumn("processed_at", "text")
    .execute();
  await db.schema.createIndex("incoming_events_event_idx").on("incoming_events").columns(["source", "event_id"]).unique().execute();
  await db.schema.createIndex("incoming_events_received_idx").on("incoming_events").columns(["received_at", "id"]).execute();
  await db.schema.createIndex("incoming_events_source_idx").on("incoming_events").columns(["source", "received_at", "id"]).execute();
  await db.schema.createIndex("incoming_events_status_idx").on("incoming_events").columns(["status", "received_at", "id"]).execute();
  await db.schema.createIndex("incoming_events_source_status_idx").on("incoming_events").columns(["source", "status", "received_at", "id"]).execute();

  await db.schema
    .createTable("incoming_versions")
    .addColumn("object_key", "text", (c) => c.primaryKey())
    .addColumn("version_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("deleted_provider_accounts")
    .addColumn("user_id", "text", (c) => c.primaryKey())
    .addColumn("deleted_at", "text", (c) => c.notNull())
    .addColumn("event_id", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable("payouts")
    .addColumn("reversed_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("payouts_transfer_idx").on("payouts").column("stripe_transfer_id").execute();
  await db.schema.createIndex("payout_accounts_stripe_idx").on("payout_accounts").column("stripe_account_id").execute();
  await db.schema.createIndex("storefront_events_status_idx").on("storefront_events").columns(["status", "received_at", "id"]).execute();
}
