import type { EventResult, IngestEventsRequest, OrderPaidData, StorefrontEventType } from "../../../contract/integrations-events.ts";
import { LedgerError } from "../../domain/ledger/ledger-error.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Database } from "../../platform/db/connect.ts";
import { type Executor, inSavepoint } from "../../platform/db/executor.ts";
import { EventLoopTurns } from "../../platform/event-loop-turns.ts";
import { type AppliedOutcome, EventRejection, applyEvent, prepareOrdersTogether } from "./storefront-events.apply.ts";
import { findStorefrontEvent, findStorefrontEventIds, insertStorefrontEvents } from "./integrations.queries.ts";

type EnvelopeEvent = IngestEventsRequest["events"][number];

/** An event whose type, time and data passed validation. */
export interface ValidEvent {
  type: StorefrontEventType;
  occurredAt: string;
  data: unknown;
}

/** An event as received, with its body's hash and what validation made of it (plain data: it may cross to the writer thread). */
export interface ReceivedEvent {
  event: EnvelopeEvent;
  hash: string;
  valid: ValidEvent | EventResult["error"];
}

/** What applying a batch gave: an answer per event, in order, and how many paid orders shared a transaction. */
export interface AppliedBatch {
  results: EventResult[];
  ordersTogether: number;
}

/** How an applier groups its writes into transactions. */
export interface ApplierOptions {
  /** How many consecutive paid orders may be applied together at the moment. */
  ordersPerRun: () => number;
  /**
   * Each batch in one transaction, each event (or run of paid orders) in a savepoint of it, so a
   * batch costs one commit whatever its mix (decision 0029). Only where the batch's hold on the
   * connection keeps nobody waiting (the writer thread) and no other writer can take a lock the
   * batch would then wait for (SQLite's one writer).
   */
  oneCommitPerBatch: boolean;
}

/** A unique index refused a row another transaction wrote first, or PostgreSQL chose this one to fail: the event is tried again. */
function isRace(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "23505" || code === "40001" || code === "40P01" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
  return err instanceof LedgerError && err.code === "invalid_state" && err.message.endsWith("changed meanwhile: try again");
}

const TRIES = 3;

/**
 * The paid orders that may be applied together from `from` on: consecutive valid order.paid events,
 * up to `most`, ending before an event id or orderId seen earlier in the run (the
 * second must see the first applied, as events are applied in order). Applied together or one after
 * another, such orders move every figure alike: their rows are distinct and the rollups add up.
 */
function paidOrdersRun(received: readonly ReceivedEvent[], from: number, most: number): ReceivedEvent[] {
  const run: ReceivedEvent[] = [];
  const ids = new Set<string>();
  const orderIds = new Set<string>();
  for (const r of received.slice(from, from + most)) {
    if (!r.valid || !("type" in r.valid) || r.valid.type !== "order.paid") break;
    const { orderId } = r.valid.data as OrderPaidData;
    if (ids.has(r.event.id) || orderIds.has(orderId)) break;
    ids.add(r.event.id);
    orderIds.add(orderId);
    run.push(r);
  }
  return run;
}

/**
 * Applies received events to the database, each on its own and in order (docs/integration.md). An
 * event id seen before answers what it got then (duplicate, or stale again) and changes nothing;
 * with another body it is refused (id_reused). Otherwise the event is applied in one transaction
 * with its record, so it is recorded exactly when its changes are: a crash between two events
 * leaves the first applied and recorded, the second neither, and a re-sent batch applies only what
 * is missing. A run of paid orders shares one transaction (payTogether, decision 0022): its events
 * are recorded, or not, together. With `oneCommitPerBatch` each of these transactions is a
 * savepoint of the batch's one: an event is still applied whole or not at all, and a crash before
 * the commit leaves none of the batch, which was not answered, so the sender sends it again.
 */
export class StorefrontEventsApplier {
  /**
   * Each event waits for its turn of the event loop, shared by every batch this applier is applying:
   * on SQLite a statement never waits for I/O, so a batch would otherwise hold the thread until its
   * last event, and several batches would each apply one per turn. Requests answered by the same
   * thread are answered between two events, behind one event whatever the number of senders.
   */
  private readonly turns = new EventLoopTurns();

  constructor(
    private readonly database: Database,
    private readonly storefrontOrigin: string,
    private readonly options: ApplierOptions,
  ) {}

  apply(received: readonly ReceivedEvent[], apiKeyId: string | null, clock: Clock): Promise<AppliedBatch> {
    if (!this.options.oneCommitPerBatch) return this.applyInOrder(received, apiKeyId, clock, null);
    return this.database.db.transaction().execute((batch) => this.applyInOrder(received, apiKeyId, clock, batch));
  }

  /** Runs `fn` atomically: in a transaction of its own, or in a savepoint of the batch's. */
  private atomically<T>(batch: Executor | null, fn: (trx: Executor) => Promise<T>): Promise<T> {
    return batch ? inSavepoint(batch, fn) : this.database.db.transaction().execute(fn);
  }

  private async applyInOrder(received: readonly ReceivedEvent[], apiKeyId: string | null, clock: Clock, batch: Executor | null): Promise<AppliedBatch> {
    const results: EventResult[] = [];
    let ordersTogether = 0;
    while (results.length < received.length) {
      await this.turns.next();
      const run = paidOrdersRun(received, results.length, this.options.ordersPerRun());
      const together = run.length > 1 ? await this.payTogether(run, apiKeyId, clock, batch) : [null];
      for (const [i, result] of together.entries()) {
        if (result) {
          results.push(result);
          ordersTogether++;
        } else {
          if (i > 0) await this.turns.next();
          results.push(await this.applyOne(received[results.length]!, apiKeyId, clock, batch));
        }
      }
    }
    return { results, ordersTogether };
  }

  /**
   * A run of paid orders applied in one transaction (placeOrders: one statement per table for all of
   * them), each recorded as applied with it. Per event its answer, or null for one to be applied on
   * its own: one recorded before, or one whose answer is not simply "applied"
   * (prepareOrdersTogether). Should the transaction fail (another process recorded one of them meanwhile,
   * PostgreSQL broke a deadlock), nothing of it stays and every event is applied on its own.
   */
  private async payTogether(run: readonly ReceivedEvent[], apiKeyId: string | null, clock: Clock, batch: Executor | null): Promise<Array<EventResult | null>> {
    try {
      return await this.atomically(batch, async (trx) => {
        const recorded = await findStorefrontEventIds(
          trx,
          run.map((r) => r.event.id),
        );
        const fresh = run.filter((r) => !recorded.has(r.event.id));
        const orders = await prepareOrdersTogether(
          trx,
          clock,
          fresh.map((r) => (r.valid as ValidEvent).data as OrderPaidData),
        );
        const applied = new Set(fresh.filter((_, i) => orders.placeable[i]));
        const receivedAt = clock.now().toISOString();
        // The receipts before the orders: placing them ends with the rows every sale shares,
        // whose locks are then held only until the commit (docs/decisions/0024-shared-rows-last.md).
        await insertStorefrontEvents(
          trx,
          [...applied].map((r) => ({ id: r.event.id, type: "order.paid", body_hash: r.hash, status: "applied", api_key_id: apiKeyId, received_at: receivedAt })),
        );
        await orders.place();
        return run.map((r) => (applied.has(r) ? { id: r.event.id, status: "applied" as const } : null));
      });
    } catch (err) {
      if (isRace(err) || err instanceof LedgerError) return run.map(() => null);
      throw err;
    }
  }

  private async applyOne({ event, hash, valid }: ReceivedEvent, apiKeyId: string | null, clock: Clock, batch: Executor | null): Promise<EventResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.atomically(batch, (trx) => this.attempt(trx, event, hash, valid, apiKeyId, clock));
      } catch (err) {
        if (attempt < TRIES && isRace(err)) continue;
        if (err instanceof EventRejection) return { id: event.id, status: "rejected", error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) } };
        if (err instanceof LedgerError && err.code !== "not_found") return { id: event.id, status: "rejected", error: { code: err.code, message: err.message } };
        throw err;
      }
    }
  }

  private async attempt(trx: Executor, event: EnvelopeEvent, hash: string, valid: ValidEvent | EventResult["error"], apiKeyId: string | null, clock: Clock): Promise<EventResult> {
    const before = await findStorefrontEvent(trx, event.id);
    if (before) {
      if (before.body_hash !== hash) {
        throw new EventRejection("id_reused", `Event id ${event.id} was sent before with another body: give each event its own id`, { id: "was used for another event" });
      }
      return { id: event.id, status: before.status === "stale" ? "stale" : "duplicate" };
    }
    if (!valid || !("type" in valid)) throw new EventRejection(valid?.code ?? "invalid_input", valid?.message ?? "invalid event", valid?.fields);
    const outcome: AppliedOutcome = await applyEvent(
      { trx, clock, occurredAt: valid.occurredAt, source: `apikey:${apiKeyId ?? "none"}`, storefrontOrigin: this.storefrontOrigin },
      valid.type,
      valid.data,
    );
    if (outcome !== "duplicate") {
      await insertStorefrontEvents(trx, [{ id: event.id, type: valid.type, body_hash: hash, status: outcome, api_key_id: apiKeyId, received_at: clock.now().toISOString() }]);
    }
    return { id: event.id, status: outcome };
  }
}
