import { createHash } from "node:crypto";
import type { z } from "zod";
import {
  type EventResult,
  type IngestEventsRequest,
  type IngestEventsResponse,
  isoTimeSchema,
  STOREFRONT_EVENT_DATA,
  STOREFRONT_EVENT_TYPES,
  type StorefrontEventType,
} from "../../../contract/integrations-events.ts";
import { storefrontOrdersTogether } from "../../platform/metrics/metrics.ts";
import { msSinceLastRead } from "../../platform/traffic.ts";
import { zodErrorFields } from "../../platform/http/validate.ts";
import type { ApiKeyPrincipal } from "../../platform/identity/api-keys.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { storefrontOrigin } from "../../platform/http/security-headers.ts";
import { type ReceivedEvent, StorefrontEventsApplier, type ValidEvent } from "./storefront-events.applier.ts";
import { StorefrontEventsThread } from "./storefront-events.thread.ts";

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

/** Most paid orders applied in one transaction on the main thread: larger runs measured no faster on PostgreSQL with 2 replicas (their locks wait longer). */
const MOST_ORDERS_TOGETHER = 20;

/**
 * On an in-memory SQLite database the events are applied on the main thread, whose one connection
 * a run holds until it commits, so a screen's read waits for all of it: while reads come in (one
 * began within this many ms), each order is applied on its own (docs/performance.md "Ingestion":
 * even runs of two lifted the screens' p95 to 9.1–11.5 ms, against its 10 ms target). On a SQLite
 * file the writer thread applies them (storefront-events.thread.ts).
 */
export const SQLITE_READS_RECENTLY_MS = 250;

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
 * POST /api/events (docs/integration.md): the batch is read and checked here, each event's body
 * hashed, and applied by StorefrontEventsApplier, each event on its own and in order: on the main
 * thread, or on a SQLite file in the writer thread (decision 0028).
 */
export class StorefrontEventsService {
  private readonly applier: Pick<StorefrontEventsApplier, "apply">;

  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "config">) {
    const origin = storefrontOrigin(deps.config.storefrontUrl);
    const { database } = deps;
    if (database.sqlite && !database.sqlite.memory) {
      const thread = new StorefrontEventsThread({ path: database.sqlite.name, storefrontOrigin: origin });
      database.onClose(() => thread.stop());
      this.applier = thread;
    } else {
      this.applier = new StorefrontEventsApplier(database, origin, {
        ordersPerRun: () => (database.kind === "sqlite" && msSinceLastRead() < SQLITE_READS_RECENTLY_MS ? 1 : MOST_ORDERS_TOGETHER),
        oneCommitPerBatch: false,
      });
    }
  }

  async ingest(events: IngestEventsRequest["events"], apiKey: ApiKeyPrincipal | null): Promise<IngestEventsResponse> {
    const received: ReceivedEvent[] = events.map((event) => ({ event, hash: bodyHash(event), valid: validate(event) }));
    const { results, ordersTogether } = await this.applier.apply(received, apiKey?.id ?? null, this.deps.clock);
    storefrontOrdersTogether.inc(ordersTogether);
    return { results };
  }
}
