import { createHash } from "node:crypto";
import type { z } from "zod";
import {
  type EventResult,
  type IngestEventsRequest,
  type IngestEventsResponse,
  isoTimeSchema,
  type OrderPaidData,
  STOREFRONT_EVENT_DATA,
  STOREFRONT_EVENT_TYPES,
  type StorefrontEventType,
} from "../../../contract/integrations-events.ts";
import { LedgerError } from "../../domain/ledger/ledger-error.ts";
import { EventLoopTurns } from "../../platform/event-loop-turns.ts";
import { storefrontOrdersTogether } from "../../platform/metrics/metrics.ts";
import { msSinceLastRead } from "../../platform/traffic.ts";
import { zodErrorFields } from "../../platform/http/validate.ts";
import type { ApiKeyPrincipal } from "../../platform/identity/api-keys.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { type AppliedOutcome, EventRejection, applyEvent, prepareOrdersTogether } from "./storefront-events.apply.ts";
import { storefrontOrigin } from "../../platform/http/security-headers.ts";
import { findStorefrontEvent, findStorefrontEventIds, insertStorefrontEvents } from "./integrations.queries.ts";

type EnvelopeEvent = IngestEventsRequest["events"][number];

/** A key's JSON with object keys sorted: two sends of one event hash alike whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function bodyHash(event: EnvelopeEvent): string {
  return createHash("sha256")
    .update(canonicalJson({ type: event.type, occurredAt: event.occurredAt, data: event.data }))
    .digest("hex");
}

/** A unique index refused a row another transaction wrote first, or PostgreSQL chose this one to fail: the event is tried again. */
function isRace(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "23505" || code === "40001" || code === "40P01" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
  return err instanceof LedgerError && err.code === "invalid_state" && err.message.endsWith("changed meanwhile: try again");
}

const TRIES = 3;

interface ValidEvent {
  type: StorefrontEventType;
  occurredAt: string;
  data: unknown;
}

/** An event as received, with its body's hash and what validation made of it. */
interface ReceivedEvent {
  event: EnvelopeEvent;
  hash: string;
  valid: ValidEvent | EventResult["error"];
}

/** Most paid orders applied in one transaction: larger runs measured no faster on PostgreSQL with 2 replicas (their locks wait longer). */
const MOST_ORDERS_TOGETHER = 20;

/**
 * On SQLite a run holds the process's one connection until it commits, so a screen's read waits for
 * all of it: while reads come in (one began within this many ms), each order is applied on its own
 * (docs/performance.md "Ingestion": even runs of two lifted the screens' p95 in `npm run bench` to
 * 9.1–11.5 ms, against its 10 ms target).
 */
export const SQLITE_READS_RECENTLY_MS = 250;

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

/** The event's type, time and data, or the rejection naming each field at fault (data fields as `data.…`). */
function validate(event: EnvelopeEvent): ValidEvent | EventResult["error"] {
  if (typeof event.type !== "string" || !(STOREFRONT_EVENT_TYPES as readonly string[]).includes(event.type)) {
    return { code: "invalid_input", message: `type: must be one of ${STOREFRONT_EVENT_TYPES.join(", ")}`, fields: { type: "unknown event type" } };
  }
  const type = event.type as StorefrontEventType;
  const time = isoTimeSchema.safeParse(event.occurredAt);
  if (!time.success) {
    const problem = Object.values(zodErrorFields(time.error))[0] ?? "must be an ISO 8601 time with a zone";
    return { code: "invalid_input", message: `occurredAt: ${problem}`, fields: { occurredAt: problem } };
  }
  const schema: z.ZodType = STOREFRONT_EVENT_DATA[type];
  const parsed = schema.safeParse(event.data);
  if (!parsed.success) {
    const fields = Object.fromEntries(Object.entries(zodErrorFields(parsed.error)).map(([k, v]) => [k === "input" ? "data" : `data.${k}`, v]));
    const [field, problem] = Object.entries(fields)[0] ?? ["data", "is invalid"];
    return { code: "invalid_input", message: `${field}: ${problem}`, fields };
  }
  return { type, occurredAt: new Date(time.data).toISOString(), data: parsed.data };
}

/**
 * POST /api/events (docs/integration.md): each event on its own, in order. An event id seen before
 * answers what it got then (duplicate, or stale again) and changes nothing; with another body it is
 * refused (id_reused). Otherwise the event is applied in one transaction with its record, so it is
 * recorded exactly when its changes are: a crash between two events leaves the first applied and
 * recorded, the second neither, and a re-sent batch applies only what is missing. A run of paid
 * orders shares one transaction (payTogether, decision 0022): its events are recorded, or not, together.
 */
export class StorefrontEventsService {
  private readonly storefrontOrigin: string;

  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "config">) {
    this.storefrontOrigin = storefrontOrigin(deps.config.storefrontUrl);
  }

  /**
   * Each event waits for its turn of the event loop, shared by every batch this process is applying:
   * on SQLite a statement never waits for I/O, so a batch would otherwise hold the process until
   * its last event, and several batches would each apply one per turn. The screens' requests are
   * answered between two events, behind one event whatever the number of senders.
   */
  private readonly turns = new EventLoopTurns();

  async ingest(events: IngestEventsRequest["events"], apiKey: ApiKeyPrincipal | null): Promise<IngestEventsResponse> {
    const received = events.map((event) => ({ event, hash: bodyHash(event), valid: validate(event) }));
    const results: EventResult[] = [];
    while (results.length < received.length) {
      await this.turns.next();
      const run = paidOrdersRun(received, results.length, this.ordersPerRun());
      const together = run.length > 1 ? await this.payTogether(run, apiKey) : [null];
      for (const [i, result] of together.entries()) {
        if (result) results.push(result);
        else {
          if (i > 0) await this.turns.next();
          results.push(await this.ingestOne(received[results.length]!, apiKey));
        }
      }
    }
    return { results };
  }

  private ordersPerRun(): number {
    return this.deps.database.kind === "sqlite" && msSinceLastRead() < SQLITE_READS_RECENTLY_MS ? 1 : MOST_ORDERS_TOGETHER;
  }

  /**
   * A run of paid orders applied in one transaction (placeOrders: one statement per table for all of
   * them), each recorded as applied with it. Per event its answer, or null for one to be applied on
   * its own: one recorded before, or one whose answer is not simply "applied"
   * (prepareOrdersTogether). Should the transaction fail (another process recorded one of them meanwhile,
   * PostgreSQL broke a deadlock), nothing of it stays and every event is applied on its own.
   */
  private async payTogether(run: readonly ReceivedEvent[], apiKey: ApiKeyPrincipal | null): Promise<Array<EventResult | null>> {
    const { clock } = this.deps;
    try {
      const together = await this.deps.database.db.transaction().execute(async (trx) => {
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
          [...applied].map((r) => ({ id: r.event.id, type: "order.paid", body_hash: r.hash, status: "applied", api_key_id: apiKey?.id ?? null, received_at: receivedAt })),
        );
        await orders.place();
        return run.map((r) => (applied.has(r) ? { id: r.event.id, status: "applied" as const } : null));
      });
      storefrontOrdersTogether.inc(together.filter((r) => r !== null).length);
      return together;
    } catch (err) {
      if (isRace(err) || err instanceof LedgerError) return run.map(() => null);
      throw err;
    }
  }

  private async ingestOne({ event, hash, valid }: ReceivedEvent, apiKey: ApiKeyPrincipal | null): Promise<EventResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(event, hash, valid, apiKey);
      } catch (err) {
        if (attempt < TRIES && isRace(err)) continue;
        if (err instanceof EventRejection) return { id: event.id, status: "rejected", error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) } };
        if (err instanceof LedgerError && err.code !== "not_found") return { id: event.id, status: "rejected", error: { code: err.code, message: err.message } };
        throw err;
      }
    }
  }

  private async attempt(event: EnvelopeEvent, hash: string, valid: ValidEvent | EventResult["error"], apiKey: ApiKeyPrincipal | null): Promise<EventResult> {
    const { clock } = this.deps;
    return this.deps.database.db.transaction().execute(async (trx) => {
      const before = await findStorefrontEvent(trx, event.id);
      if (before) {
        if (before.body_hash !== hash) {
          throw new EventRejection("id_reused", `Event id ${event.id} was sent before with another body: give each event its own id`, { id: "was used for another event" });
        }
        return { id: event.id, status: before.status === "stale" ? "stale" : "duplicate" };
      }
      if (!valid || !("type" in valid)) throw new EventRejection(valid?.code ?? "invalid_input", valid?.message ?? "invalid event", valid?.fields);
      const outcome: AppliedOutcome = await applyEvent(
        { trx, clock, occurredAt: valid.occurredAt, source: `apikey:${apiKey?.id ?? "none"}`, storefrontOrigin: this.storefrontOrigin },
        valid.type,
        valid.data,
      );
      if (outcome !== "duplicate") {
        await insertStorefrontEvents(trx, [{ id: event.id, type: valid.type, body_hash: hash, status: outcome, api_key_id: apiKey?.id ?? null, received_at: clock.now().toISOString() }]);
      }
      return { id: event.id, status: outcome };
    });
  }
}
