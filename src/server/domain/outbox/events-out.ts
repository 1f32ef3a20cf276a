import type { EventOutBody, EventOutData, EventOutType } from "../../../contract/integrations-webhooks.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { newId } from "../../platform/db/ids.ts";
import { insertJob } from "../../platform/jobs/jobs.queries.ts";

/**
 * The outbox of decisions (docs/integration.md "Webhooks"). A service that decides something the
 * storefront must know calls `recordEventOut` inside the transaction of the decision: the event
 * row, one delivery per enabled endpoint subscribed to its type, and the sender's wake-up job are
 * written with the decision, so a decision never exists without its event and a decision rolled
 * back leaves none. The sender (features/integrations/webhook-delivery.job.ts) delivers them.
 */

/** The job that wakes the webhook sender: queued with every decision that has deliveries, and for each retry at its time. */
export const WEBHOOK_DELIVERY_JOB = "webhooks.deliver";

/** Transactions that queued a wake-up already: one job per transaction, however many events it records. */
const woken = new WeakSet<object>();

/** Wakes the sender at `runAfter` (in the caller's transaction when given one); `key` keeps it to one job per reason. */
export async function wakeWebhookSender(db: Executor, key: string, runAfter: string, now: string): Promise<void> {
  await insertJob(db, { id: newId(), kind: WEBHOOK_DELIVERY_JOB, payload: {}, dedupeKey: `${WEBHOOK_DELIVERY_JOB}:${key}`, runAfter, now });
}

/** Enabled endpoints and the types each takes (a handful of rows: endpoints are few). */
async function subscribers(db: Executor, type: EventOutType, onlyEndpointId: string | undefined): Promise<string[]> {
  let query = db.selectFrom("webhook_endpoints").select(["id", "events"]).where("enabled", "=", 1);
  if (onlyEndpointId !== undefined) return (await query.where("id", "=", onlyEndpointId).execute()).map((e) => e.id);
  query = query.orderBy("id");
  return (await query.execute()).filter((e) => (JSON.parse(e.events) as string[]).includes(type)).map((e) => e.id);
}

/**
 * Records one event out, `at` being when the decision was taken (its `createdAt`), with a pending
 * delivery for each enabled endpoint subscribed to `type` (or for `onlyEndpointId` alone: a test
 * event). Runs in the caller's transaction (opens one when given none). Returns the event's id and
 * its deliveries' ids.
 */
export async function recordEventOut<T extends EventOutType>(
  db: Executor,
  type: T,
  data: EventOutData[T],
  at: string,
  options: { onlyEndpointId?: string } = {},
): Promise<{ eventId: string; deliveryIds: string[] }> {
  return inTransaction(db, async (trx) => {
    const id = newId();
    const body: EventOutBody<T> = { id, type, createdAt: at, data };
    await trx
      .insertInto("webhook_events")
      .values({ id, type, body: JSON.stringify(body), created_at: at })
      .execute();
    const endpoints = await subscribers(trx, type, options.onlyEndpointId);
    if (endpoints.length === 0) return { eventId: id, deliveryIds: [] };
    const deliveries = endpoints.map((endpointId) => ({
      id: newId(),
      endpoint_id: endpointId,
      event_id: id,
      event_type: type,
      status: "pending" as const,
      attempts: 0,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    }));
    await trx.insertInto("webhook_deliveries").values(deliveries).execute();
    if (!woken.has(trx)) {
      woken.add(trx);
      await wakeWebhookSender(trx, id, at, at);
    }
    return { eventId: id, deliveryIds: deliveries.map((d) => d.id) };
  });
}

/** The storefront's ids of these vendors (null for a vendor that did not come from the storefront), for events' `artistId`. */
export async function artistIdsOf(db: Executor, vendorIds: readonly string[]): Promise<Map<string, string | null>> {
  const unique = [...new Set(vendorIds)];
  const found = new Map<string, string | null>(unique.map((id) => [id, null]));
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom("vendors")
      .select(["id", "external_id"])
      .where("id", "in", unique.slice(i, i + 500))
      .execute();
    for (const r of rows) found.set(r.id, r.external_id);
  }
  return found;
}
