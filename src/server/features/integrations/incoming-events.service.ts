import type { SignedBody } from "../../../contract/endpoint.ts";
import type { IncomingEvent, IncomingEventsQuery, IncomingEventsResponse, IncomingOutcome } from "../../../contract/integrations-inbound.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { newId } from "../../platform/db/ids.ts";
import type { IncomingEventSource } from "../../platform/db/schema.ts";
import { HttpError, conflict, notFound } from "../../platform/http/http-error.ts";
import { encodeKeyset, readKeyset } from "../../platform/http/keyset-cursor.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { verifyClerkEvent } from "../../platform/identity/clerk-webhooks.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { verifyStripeEvent } from "../../platform/stripe/stripe-webhooks.ts";
import { applyIncomingEvent } from "./incoming-events.apply.ts";
import {
  type IncomingEventRow,
  type LogPosition,
  claimPendingEvent,
  findIncomingEvent,
  finishEvent,
  insertIncomingEvent,
  noteFailedAttempt,
  pageIncomingEvents,
  pageStorefrontEvents,
  reopenFailedEvent,
} from "./incoming-events.queries.ts";

/** The job that processes one stored Stripe or Clerk event (incoming-events.job.ts). */
export const INCOMING_EVENT_JOB = "incoming_events.process";
/** Attempts of that job: 5 s, 10 s, 20 s … apart (job-worker.ts), about 10 minutes in all, then `failed`. */
export const INCOMING_EVENT_ATTEMPTS = 8;
/** An outcome or error kept at most this long. */
const MAX_OUTCOME_LENGTH = 500;

export interface WebhookReceipt {
  received: true;
  duplicate: boolean;
}

type Deps = Pick<AppDeps, "database" | "clock" | "config" | "jobs">;

const notConfigured = (provider: string, variable: string) =>
  new HttpError(503, "not_configured", `${provider} webhooks are not configured on this panel: set ${variable} to the endpoint's signing secret (docs/integration.md)`);

const badSignature = (header: string, reason: string) => new HttpError(400, "invalid_signature", `${header}: ${reason}`, {}, { [header]: reason });

const objectOf = (value: unknown): Record<string, unknown> => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const textOf = (value: unknown, max = 255): string | null => (typeof value === "string" && value.length > 0 && value.length <= max ? value : null);
/** Unix seconds or milliseconds as ISO-8601, when they are a real time. */
const isoOf = (ms: unknown): string | null => (typeof ms === "number" && Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString() : null);

/**
 * Stripe's and Clerk's webhooks (docs/integration.md "Stripe's and Clerk's webhooks"): an event is
 * taken only when its signature verifies over the body as received; it is stored once by its id and
 * its processing job queued in the same transaction, and the provider is answered at once. The
 * job applies it in one transaction with its outcome (incoming-events.apply.ts), so it is applied
 * exactly when it is recorded as processed: retried when it fails, never applied twice.
 */
export class IncomingEventsService {
  constructor(private readonly deps: Deps) {}

  async receiveStripe(body: SignedBody): Promise<WebhookReceipt> {
    const secrets = this.deps.config.stripeWebhookSecrets;
    if (secrets.length === 0) throw notConfigured("Stripe", "STRIPE_WEBHOOK_SECRET");
    const verified = await verifyStripeEvent(body.text, body.headers["stripe-signature"], secrets);
    if (!verified.ok) throw badSignature("stripe-signature", verified.reason);
    const event = verified.event as unknown as Record<string, unknown>;
    const eventId = textOf(event.id);
    const type = textOf(event.type, 100);
    const occurredAt = isoOf(typeof event.created === "number" ? event.created * 1000 : undefined);
    if (!eventId || !type || !occurredAt) throw badSignature("stripe-signature", "the signed body is not a Stripe event (id, type, created)");
    return this.store("stripe", eventId, type, textOf(objectOf(objectOf(event.data).object).id), occurredAt, body.text);
  }

  async receiveClerk(body: SignedBody): Promise<WebhookReceipt> {
    const secret = this.deps.config.clerkWebhookSigningSecret;
    if (!secret) throw notConfigured("Clerk", "CLERK_WEBHOOK_SIGNING_SECRET");
    const verified = verifyClerkEvent(body.text, body.headers, secret);
    if (!verified.ok) throw badSignature(verified.header, verified.reason);
    const event = objectOf(verified.event);
    const messageId = textOf(verified.messageId);
    const type = textOf(event.type, 100);
    // Clerk's `timestamp` is when it made the event (Unix ms); Svix's header, when it signed this delivery.
    const occurredAt = isoOf(event.timestamp) ?? isoOf(Number(body.headers["svix-timestamp"]) * 1000);
    if (!messageId || !type || !occurredAt) throw badSignature("svix-signature", "the signed body is not a Clerk event (type, timestamp)");
    return this.store("clerk", messageId, type, textOf(objectOf(event.data).id), occurredAt, body.text);
  }

  /** Stores a verified event and queues its processing in one transaction, unless its id came before. */
  private async store(source: IncomingEventSource, eventId: string, type: string, objectId: string | null, occurredAt: string, payload: string): Promise<WebhookReceipt> {
    const { database, clock, jobs } = this.deps;
    const stored = await database.db.transaction().execute(async (trx) => {
      const id = newId();
      const row: IncomingEventRow = {
        id,
        source,
        event_id: eventId,
        type,
        object_id: objectId,
        occurred_at: occurredAt,
        payload,
        status: "pending",
        outcome: null,
        attempts: 0,
        received_at: clock.now().toISOString(),
        processed_at: null,
      };
      if (!(await insertIncomingEvent(trx, row))) return false;
      await jobs.enqueue(INCOMING_EVENT_JOB, { id }, { executor: trx, maxAttempts: INCOMING_EVENT_ATTEMPTS });
      return true;
    });
    return { received: true, duplicate: !stored };
  }

  /**
   * Processes a stored event (the job's work): applied and recorded in one transaction, which
   * holds the event's row, so a second run finds it processed and does nothing. A failure is
   * counted with its error; after the last attempt the event is `failed` until an operator retries it.
   */
  async process(id: string, lastAttempt: boolean): Promise<void> {
    const { database, clock } = this.deps;
    try {
      await database.db.transaction().execute(async (trx) => {
        const event = await claimPendingEvent(trx, id);
        if (!event) return;
        const applied = await applyIncomingEvent({ trx, clock, event, body: objectOf(JSON.parse(event.payload)) });
        await finishEvent(trx, id, applied.status, applied.outcome.slice(0, MAX_OUTCOME_LENGTH), clock.now().toISOString());
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await noteFailedAttempt(database.db, id, message.slice(0, MAX_OUTCOME_LENGTH), lastAttempt, clock.now().toISOString());
      throw err;
    }
  }

  /** An operator's retry of a failed event: pending again and its job queued, with the audit row, in one transaction. */
  async retry(actor: Actor, id: string): Promise<{ event: IncomingEvent }> {
    const { database, clock, jobs } = this.deps;
    const event = await database.db.transaction().execute(async (trx) => {
      const row = await findIncomingEvent(trx, id);
      if (!row) throw notFound("No Stripe or Clerk event with this id");
      if (!(await reopenFailedEvent(trx, id))) throw conflict(`Only a failed event can be retried (this one is ${row.status})`);
      await jobs.enqueue(INCOMING_EVENT_JOB, { id }, { executor: trx, maxAttempts: INCOMING_EVENT_ATTEMPTS, createdBy: actor.user.id });
      await recordAudit(
        trx,
        {
          actor,
          action: "incoming_event.retry",
          target: { type: "incoming_event", id, label: `${row.source} ${row.type}` },
          before: { status: "failed" },
          after: { status: "pending" },
          details: { source: row.source, eventId: row.event_id, type: row.type, attempts: row.attempts, lastError: row.outcome },
        },
        clock,
      );
      return { ...row, status: "pending" as const, processed_at: null };
    });
    return { event: providerItem(event) };
  }

  /**
   * One page of everything that came in, newest received first: the providers' events and the
   * storefront's, each read by a keyset walk of its own index from the same position, merged.
   */
  async list(query: IncomingEventsQuery): Promise<IncomingEventsResponse> {
    const after: LogPosition | undefined = query.cursor ? positionOf(readKeyset(query.cursor, ["time", "string"])) : undefined;
    const want = query.limit + 1;
    const items: IncomingEvent[] = [];
    const { db } = this.deps.database;
    const outcome = query.outcome;
    if (query.source !== "storefront") {
      const source = query.source === "stripe" || query.source === "clerk" ? query.source : undefined;
      const rows = await pageIncomingEvents(db, { ...(source ? { source } : {}), ...(outcome ? { status: outcome } : {}) }, after, want);
      items.push(...rows.map(providerItem));
    }
    // The storefront's events are kept applied (processed) or stale: no other outcome has any.
    const storefrontStatus = outcome === undefined ? undefined : outcome === "processed" ? "applied" : outcome === "stale" ? "stale" : null;
    if ((query.source === undefined || query.source === "storefront") && storefrontStatus !== null) {
      const rows = await pageStorefrontEvents(db, storefrontStatus, after, want);
      items.push(...rows.map(storefrontItem));
    }
    items.sort((a, b) => (a.receivedAt === b.receivedAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.receivedAt < b.receivedAt ? 1 : -1));
    const page = items.slice(0, query.limit);
    const last = page.at(-1);
    return { items: page, nextCursor: items.length > query.limit && last ? encodeKeyset([last.receivedAt, last.id]) : null };
  }
}

function positionOf([receivedAt, id]: [string, string]): LogPosition {
  return { receivedAt, id };
}

function providerItem(row: IncomingEventRow): IncomingEvent {
  return {
    id: row.id,
    source: row.source,
    eventId: row.event_id,
    type: row.type,
    receivedAt: row.received_at,
    outcome: row.status,
    message: row.outcome,
    attempts: Number(row.attempts),
    processedAt: row.processed_at,
    retryable: row.status === "failed",
  };
}

function storefrontItem(row: { id: string; type: string; status: string; received_at: string }): IncomingEvent {
  const outcome: IncomingOutcome = row.status === "stale" ? "stale" : "processed";
  return { id: row.id, source: "storefront", eventId: row.id, type: row.type, receivedAt: row.received_at, outcome, message: null, attempts: 0, processedAt: row.received_at, retryable: false };
}
