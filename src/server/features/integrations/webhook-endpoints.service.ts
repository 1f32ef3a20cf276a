import { randomBytes } from "node:crypto";
import {
  type CreateWebhookEndpointRequest,
  MAX_WEBHOOK_ENDPOINTS,
  type UpdateWebhookEndpointRequest,
  WEBHOOK_PREVIOUS_SECRET_HOURS,
  type WebhookDeliveriesQuery,
  type WebhookDeliveriesResponse,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointsResponse,
  type WebhookEndpointWithSecret,
} from "../../../contract/integrations-webhooks.ts";
import { changedValues, recordAudit } from "../../domain/audit/audit-log.ts";
import { recordEventOut, wakeWebhookSender } from "../../domain/outbox/events-out.ts";
import { webhookSealingKey } from "../../platform/identity/webhook-sealing-key.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import { newId } from "../../platform/db/ids.ts";
import { conflict, invalidField, notFound } from "../../platform/http/http-error.ts";
import { encodeKeyset, readKeyset } from "../../platform/http/keyset-cursor.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { addressPolicy, urlProblem } from "./webhook-address-guard.ts";
import {
  countWebhookEndpoints,
  deleteDeliveriesOfEndpoint,
  deleteWebhookEndpointRow,
  findWebhookDelivery,
  findWebhookEndpoint,
  insertWebhookDelivery,
  insertWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from "./webhook-endpoints.queries.ts";

const HOUR_MS = 3_600_000;

/** A signing secret as Standard Webhooks libraries take it: `whsec_` and base64 of 32 random bytes. */
function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

function toEndpoint(r: WebhookEndpointRow, now: Date): WebhookEndpoint {
  const previousLive = r.previous_secret !== null && r.previous_secret_expires_at !== null && Date.parse(r.previous_secret_expires_at) > now.getTime();
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: JSON.parse(r.events) as string[],
    enabled: Number(r.enabled) === 1,
    disabledReason: Number(r.enabled) === 1 ? null : ((r.disabled_reason ?? "admin") as WebhookEndpoint["disabledReason"]),
    disabledAt: Number(r.enabled) === 1 ? null : r.disabled_at,
    failingSince: r.failing_since,
    lastSuccessAt: r.last_success_at,
    previousSecretExpiresAt: previousLive ? r.previous_secret_expires_at : null,
    createdBy: r.created_by_email,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function toDelivery(r: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    eventId: r.event_id,
    eventType: r.event_type,
    status: r.status,
    attempts: Number(r.attempts),
    lastAttemptAt: r.last_attempt_at,
    lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
    lastDurationMs: r.last_duration_ms === null ? null : Number(r.last_duration_ms),
    lastError: r.last_error,
    lastResponseBody: r.last_response_body,
    nextAttemptAt: r.status === "pending" ? r.next_attempt_at : null,
    deliveredAt: r.delivered_at,
    createdAt: r.created_at,
  };
}

/** What an audit row says of an endpoint: never its secret. */
const described = (r: Pick<WebhookEndpointRow, "url" | "events" | "description">) => ({ url: r.url, events: JSON.parse(r.events) as string[], description: r.description });

/**
 * The webhook endpoints of the Integrations screen (docs/integration.md "Webhooks"): added,
 * changed, rotated, tested and deleted by admins, each change with its audit row in its transaction.
 * A signing secret is in the answers of creation and rotation only, sealed in the database, and in
 * no audit row or log.
 */
export class WebhookEndpointsService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock" | "config">) {}

  private get db() {
    return this.deps.database.db;
  }

  private checkUrl(url: string): void {
    const problem = urlProblem(new URL(url), addressPolicy(this.deps.config));
    if (problem) throw invalidField("url", problem);
  }

  private async found(executor: Executor, id: string): Promise<WebhookEndpointRow> {
    const row = await findWebhookEndpoint(executor, id);
    if (!row) throw notFound("No webhook endpoint with that id");
    return row;
  }

  async create(actor: Actor, input: CreateWebhookEndpointRequest): Promise<WebhookEndpointWithSecret> {
    this.checkUrl(input.url);
    const { clock } = this.deps;
    const key = await webhookSealingKey(this.db, this.deps.config);
    const secret = newSigningSecret();
    const now = clock.now().toISOString();
    const row: WebhookEndpointRow = {
      id: newId(),
      url: input.url,
      description: input.description ? input.description : null,
      events: JSON.stringify(input.events),
      enabled: 1,
      disabled_reason: null,
      disabled_at: null,
      secret: key.seal(secret),
      previous_secret: null,
      previous_secret_expires_at: null,
      failing_since: null,
      last_success_at: null,
      created_by_email: actor.user.email,
      created_at: now,
      updated_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      if ((await countWebhookEndpoints(trx)) >= MAX_WEBHOOK_ENDPOINTS) throw conflict(`There are already ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`);
      await insertWebhookEndpoint(trx, row);
      await recordAudit(trx, { actor, action: "webhook_endpoint.create", target: { type: "webhook_endpoint", id: row.id, label: row.url }, after: described(row) }, clock);
    });
    return { endpoint: toEndpoint(row, clock.now()), secret };
  }

  async list(): Promise<WebhookEndpointsResponse> {
    const rows = await listWebhookEndpoints(this.db, MAX_WEBHOOK_ENDPOINTS * 2);
    const now = this.deps.clock.now();
    return { items: rows.map((r) => toEndpoint(r, now)) };
  }

  /** Changes what was asked; enabling sends what waited meanwhile. One audit row when anything changed, none otherwise. */
  async update(actor: Actor, id: string, input: UpdateWebhookEndpointRequest): Promise<{ endpoint: WebhookEndpoint }> {
    if (input.url !== undefined) this.checkUrl(input.url);
    const { clock } = this.deps;
    return this.db.transaction().execute(async (trx) => {
      const before = await this.found(trx, id);
      const now = clock.now().toISOString();
      const wasEnabled = Number(before.enabled) === 1;
      const changes = {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events !== undefined ? { events: JSON.stringify(input.events) } : {}),
        ...(input.description !== undefined ? { description: input.description === "" ? null : input.description } : {}),
        ...(input.enabled === true && !wasEnabled ? { enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null } : {}),
        ...(input.enabled === false && wasEnabled ? { enabled: 0, disabled_reason: "admin", disabled_at: now } : {}),
      };
      const change = changedValues({ ...described(before), enabled: wasEnabled }, { ...described({ ...before, ...changes }), enabled: input.enabled ?? wasEnabled });
      if (!change) return { endpoint: toEndpoint(before, clock.now()) };
      const after = (await updateWebhookEndpoint(trx, id, { ...changes, updated_at: now }))!;
      if (input.enabled === true && !wasEnabled) await wakeWebhookSender(trx, `enabled:${id}:${now}`, now, now);
      await recordAudit(trx, { actor, action: "webhook_endpoint.update", target: { type: "webhook_endpoint", id, label: after.url }, ...change }, clock);
      return { endpoint: toEndpoint(after, clock.now()) };
    });
  }

  /** Deletes the endpoint (nothing more is sent to it), then its delivery log in chunks. */
  async delete(actor: Actor, id: string): Promise<{ endpoint: WebhookEndpoint }> {
    const { clock } = this.deps;
    const endpoint = await this.db.transaction().execute(async (trx) => {
      const row = await this.found(trx, id);
      if (!(await deleteWebhookEndpointRow(trx, id))) throw notFound("No webhook endpoint with that id");
      await recordAudit(trx, { actor, action: "webhook_endpoint.delete", target: { type: "webhook_endpoint", id, label: row.url }, before: described(row) }, clock);
      return toEndpoint(row, clock.now());
    });
    // Deliveries of a deleted endpoint are never sent (the sender joins the endpoint); a crash here leaves them to the retention sweep.
    await inChunks((size) => deleteDeliveriesOfEndpoint(this.db, id, size));
    return { endpoint };
  }

  /** A new secret; the old one keeps signing beside it for 24 hours (two signatures per delivery). */
  async rotateSecret(actor: Actor, id: string): Promise<WebhookEndpointWithSecret> {
    const { clock } = this.deps;
    const key = await webhookSealingKey(this.db, this.deps.config);
    const secret = newSigningSecret();
    return this.db.transaction().execute(async (trx) => {
      const before = await this.found(trx, id);
      const now = clock.now();
      const expires = new Date(now.getTime() + WEBHOOK_PREVIOUS_SECRET_HOURS * HOUR_MS).toISOString();
      const after = (await updateWebhookEndpoint(trx, id, { secret: key.seal(secret), previous_secret: before.secret, previous_secret_expires_at: expires, updated_at: now.toISOString() }))!;
      await recordAudit(trx, { actor, action: "webhook_endpoint.rotate_secret", target: { type: "webhook_endpoint", id, label: before.url }, details: { previousSecretSignsUntil: expires } }, clock);
      return { endpoint: toEndpoint(after, now), secret };
    });
  }

  /** A `webhook.test` event to this endpoint alone. */
  async test(actor: Actor, id: string): Promise<{ delivery: WebhookDelivery }> {
    const { clock } = this.deps;
    return this.db.transaction().execute(async (trx) => {
      const endpoint = await this.found(trx, id);
      if (Number(endpoint.enabled) !== 1) throw conflict("This endpoint is disabled; enable it to send it a test");
      const now = clock.now().toISOString();
      const { eventId, deliveryIds } = await recordEventOut(trx, "webhook.test", {}, now, { onlyEndpointId: id });
      await recordAudit(trx, { actor, action: "webhook_endpoint.test", target: { type: "webhook_endpoint", id, label: endpoint.url }, details: { eventId } }, clock);
      return { delivery: toDelivery((await findWebhookDelivery(trx, deliveryIds[0]!))!) };
    });
  }

  async deliveries(id: string, query: WebhookDeliveriesQuery): Promise<WebhookDeliveriesResponse> {
    const before = query.cursor ? readKeyset(query.cursor, ["string"])[0] : null;
    await this.found(this.db, id);
    const rows = await listWebhookDeliveries(this.db, id, query.status, query.limit + 1, before);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { deliveries: page.map(toDelivery), nextCursor: rows.length > query.limit && last ? encodeKeyset([last.id]) : null };
  }

  /** The delivery's event again, as a new delivery to the same endpoint (the old one keeps its log). */
  async resend(actor: Actor, id: string, deliveryId: string): Promise<{ delivery: WebhookDelivery }> {
    const { clock } = this.deps;
    return this.db.transaction().execute(async (trx) => {
      const endpoint = await this.found(trx, id);
      const original = await findWebhookDelivery(trx, deliveryId);
      if (!original || original.endpoint_id !== id) throw notFound("No delivery with that id for this endpoint");
      if (Number(endpoint.enabled) !== 1) throw conflict("This endpoint is disabled; enable it to resend");
      const now = clock.now().toISOString();
      const row: WebhookDeliveryRow = {
        id: newId(),
        endpoint_id: id,
        event_id: original.event_id,
        event_type: original.event_type,
        status: "pending",
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        last_attempt_at: null,
        last_status_code: null,
        last_duration_ms: null,
        last_error: null,
        last_response_body: null,
        delivered_at: null,
        created_at: now,
        updated_at: now,
      };
      await insertWebhookDelivery(trx, row);
      await wakeWebhookSender(trx, `resend:${row.id}`, now, now);
      await recordAudit(
        trx,
        {
          actor,
          action: "webhook_delivery.resend",
          target: { type: "webhook_endpoint", id, label: endpoint.url },
          details: { deliveryId, newDeliveryId: row.id, eventId: original.event_id, eventType: original.event_type },
        },
        clock,
      );
      return { delivery: toDelivery(row) };
    });
  }
}
