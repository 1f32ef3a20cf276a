import { WEBHOOK_FAILING_DAYS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from "../../../contract/integrations-webhooks.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { WEBHOOK_DELIVERY_JOB, wakeWebhookSender } from "../../domain/outbox/events-out.ts";
import { inChunks } from "../../platform/db/in-chunks.ts";
import { type SealingKey } from "../../platform/crypto/sealed-text.ts";
import { webhookSealingKey } from "../../platform/identity/webhook-sealing-key.ts";
import { isAdminUser } from "../../platform/identity/admin-rule.ts";
import type { JobWorker } from "../../platform/jobs/job-worker.ts";
import { logEvent, processLog } from "../../platform/logging/logger.ts";
import { webhookAttempts } from "../../platform/metrics/metrics.ts";
import { queueMail } from "../../platform/mail/mail-outbox.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { addressPolicy, type Resolver } from "./webhook-address-guard.ts";
import {
  claimDeliveries,
  deleteOldDeliveries,
  deleteOldEvents,
  disableWebhookEndpoint,
  findEndpointsForSending,
  findEventBodies,
  finishAttempt,
  markEndpointFailed,
  markEndpointSucceeded,
  selectAdminEmails,
  selectDueDeliveries,
  type WebhookEndpointRow,
} from "./webhook-endpoints.queries.ts";
import { type WebhookAttempt, WebhookConnections } from "./webhook-sender.ts";

/**
 * The webhook sender (docs/integration.md "Webhooks"): delivers the outbox's deliveries at least
 * once. The job system wakes it (a job with every decision that has deliveries, one at each retry's
 * time, and a sweep every minute); it then takes the deliveries that are due under a lease
 * (`locked_until`) and sends them concurrently, a few per endpoint at a time, each within 10 s.
 * The sends run beside the job worker rather than inside a job, because the worker runs one job at
 * a time: a receiver taking its 10 s would otherwise hold up every other endpoint and every other
 * kind of job. A sender that dies mid-attempt loses its lease and another sends the delivery again
 * (so a receiver may see an event twice, never zero times: it drops repeats by `webhook-id`).
 */
export const WEBHOOK_SWEEP_JOB = "webhooks.sweep";
const SWEEP_EVERY_MS = 60_000;
/** How long a sender holds a delivery it took: its 10 s attempt and time to record the outcome. */
const LEASE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Finished deliveries and their events are kept this long (the log shows a month). */
export const WEBHOOK_RETENTION_DAYS = 30;
/** ± this share of each retry delay, so endpoints recovering together are not all retried at once. */
const JITTER = 0.2;

/** When the attempt after `attempts` failed ones is due, or null when there is none left. */
export function nextAttemptAt(attempts: number, now: Date, random: () => number = Math.random): string | null {
  if (attempts >= WEBHOOK_MAX_ATTEMPTS) return null;
  const base = WEBHOOK_RETRY_DELAYS_MS[attempts - 1]!;
  const delay = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  return new Date(now.getTime() + delay).toISOString();
}

export interface WebhookSenderOptions {
  /** Deliveries in flight at once in this process. */
  maxInFlight?: number;
  /** Of those, to any one endpoint. */
  perEndpoint?: number;
  timeoutMs?: number;
  random?: () => number;
  /** How names are resolved (tests stand in for DNS); always through the address guard. */
  resolve?: Resolver;
}

interface Claimed {
  id: string;
  endpointId: string;
  attempts: number;
  lockedUntil: string;
}

export class WebhookSender {
  private readonly inFlight = new Map<string, string>();
  private readonly perEndpointCount = new Map<string, number>();
  private readonly connections: WebhookConnections;
  private readonly maxInFlight: number;
  private readonly perEndpoint: number;
  private readonly random: () => number;
  private filling: Promise<number> | null = null;
  private again = false;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(
    private readonly deps: Pick<AppDeps, "database" | "clock" | "config" | "jobs">,
    options: WebhookSenderOptions = {},
  ) {
    this.connections = new WebhookConnections(addressPolicy(deps.config), options.timeoutMs, options.resolve);
    this.maxInFlight = options.maxInFlight ?? 64;
    this.perEndpoint = options.perEndpoint ?? 16;
    this.random = options.random ?? Math.random;
  }

  private get db() {
    return this.deps.database.db;
  }

  /** Takes what is due and starts sending it; answers how many it started. Calls made meanwhile are folded into one more round. */
  fill(): Promise<number> {
    if (this.filling) {
      this.again = true;
      return this.filling;
    }
    this.filling = (async () => {
      let started = 0;
      try {
        do {
          this.again = false;
          started += await this.fillOnce();
        } while (this.again && !this.stopped);
      } finally {
        this.filling = null;
      }
      return started;
    })();
    return this.filling;
  }

  /** Resolves once nothing is in flight (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.filling) {
      if (this.filling) await this.filling;
      if (this.inFlight.size > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
  }

  /** Takes nothing more; the attempts in flight finish (their leases cover them). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
    this.connections.close();
  }

  private async fillOnce(): Promise<number> {
    if (this.stopped) return 0;
    const free = this.maxInFlight - this.inFlight.size;
    if (free <= 0) return 0;
    const now = this.deps.clock.now();
    const nowIso = now.toISOString();
    const due = await selectDueDeliveries(this.db, nowIso, free * 4);
    const chosen: string[] = [];
    const room = new Map<string, number>();
    for (const d of due) {
      if (chosen.length >= free || this.inFlight.has(d.id)) continue;
      const left = room.get(d.endpoint_id) ?? this.perEndpoint - (this.perEndpointCount.get(d.endpoint_id) ?? 0);
      if (left <= 0) continue;
      room.set(d.endpoint_id, left - 1);
      chosen.push(d.id);
    }
    if (chosen.length === 0) return 0;
    const lockedUntil = new Date(now.getTime() + LEASE_MS).toISOString();
    const claimed = await claimDeliveries(this.db, chosen, nowIso, lockedUntil);
    if (claimed.length === 0) return 0;
    const [bodies, endpoints, key] = await Promise.all([
      findEventBodies(this.db, [...new Set(claimed.map((c) => c.event_id))]),
      findEndpointsForSending(this.db, [...new Set(claimed.map((c) => c.endpoint_id))]),
      webhookSealingKey(this.db, this.deps.config),
    ]);
    const bodyOf = new Map(bodies.map((b) => [b.id, b.body]));
    const endpointOf = new Map(endpoints.map((e) => [e.id, e]));
    for (const c of claimed) {
      const item: Claimed = { id: c.id, endpointId: c.endpoint_id, attempts: Number(c.attempts), lockedUntil };
      this.inFlight.set(c.id, c.endpoint_id);
      this.perEndpointCount.set(c.endpoint_id, (this.perEndpointCount.get(c.endpoint_id) ?? 0) + 1);
      void this.attempt(item, c.event_id, bodyOf.get(c.event_id), endpointOf.get(c.endpoint_id), key);
    }
    return claimed.length;
  }

  private async attempt(item: Claimed, eventId: string, body: string | undefined, endpoint: SendingEndpoint | undefined, key: SealingKey): Promise<void> {
    try {
      let result: WebhookAttempt;
      if (body === undefined || endpoint === undefined) result = { statusCode: null, durationMs: 0, responseBody: null, error: "The event or the endpoint no longer exists" };
      else {
        let secrets: string[];
        try {
          secrets = liveSecrets(endpoint, key, this.deps.clock.now());
        } catch {
          secrets = [];
        }
        result =
          secrets.length === 0
            ? { statusCode: null, durationMs: 0, responseBody: null, error: "The signing secret cannot be opened with WEBHOOK_SECRETS_KEY; rotate the secret" }
            : await this.connections.send(endpoint.url, secrets, { id: eventId, body });
      }
      await this.record(item, result, endpoint !== undefined);
    } catch (err) {
      // Recording failed (the database is away): the lease runs out and the delivery is sent again.
      logEvent(processLog(), "warn", "webhook attempt not recorded; sent again once its lease ends", { deliveryId: item.id, err });
    } finally {
      this.inFlight.delete(item.id);
      const left = (this.perEndpointCount.get(item.endpointId) ?? 1) - 1;
      if (left <= 0) this.perEndpointCount.delete(item.endpointId);
      else this.perEndpointCount.set(item.endpointId, left);
      if (this.inFlight.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      // Once half this endpoint's turns are free, take what is due (its next ones, new events, other
      // endpoints' turns): one round of queries per few deliveries rather than per delivery.
      if (!this.stopped && left <= Math.floor(this.perEndpoint / 2)) void this.fill().catch((err: unknown) => logEvent(processLog(), "warn", "webhook sender could not take deliveries", { err }));
    }
  }

  /** Writes the attempt's outcome and what follows from it (retry, success, 410, days of failures) in one transaction. */
  private async record(item: Claimed, result: WebhookAttempt, endpointExists: boolean): Promise<void> {
    const { clock } = this.deps;
    const now = clock.now();
    const at = now.toISOString();
    const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const gone = result.statusCode === 410;
    const next = delivered || gone || !endpointExists ? null : nextAttemptAt(item.attempts, now, this.random);
    const last = {
      last_status_code: result.statusCode,
      last_duration_ms: result.durationMs,
      last_error: delivered ? null : (result.error ?? (gone ? "410 Gone: the endpoint was disabled" : `Answered ${result.statusCode}`)),
      last_response_body: result.responseBody,
    };
    let disabledFor: "gone" | "failing" | null = null;
    await this.db.transaction().execute(async (trx) => {
      const status = delivered ? "delivered" : next === null ? "failed" : "pending";
      const mine = await finishAttempt(trx, item.id, item.lockedUntil, { status, next_attempt_at: next, delivered_at: delivered ? at : null, ...last }, at);
      // Another sender took the delivery over (this lease had run out): its outcome counts.
      if (!mine || !endpointExists) return;
      if (delivered) return markEndpointSucceeded(trx, item.endpointId, at);
      if (next !== null) await wakeWebhookSender(trx, `retry:${item.id}:${item.attempts}`, next, at);
      const failingSince = await markEndpointFailed(trx, item.endpointId, at);
      const failingTooLong = failingSince !== null && now.getTime() - Date.parse(failingSince) >= WEBHOOK_FAILING_DAYS * DAY_MS;
      if (gone || failingTooLong) {
        const reason = gone ? "gone" : "failing";
        if (await disableWebhookEndpoint(trx, item.endpointId, reason, at)) {
          disabledFor = reason;
          await this.noteDisabled(trx, item.endpointId, reason, failingSince);
        }
      }
    });
    webhookAttempts.inc({ result: delivered ? "delivered" : next === null ? "failed" : "retrying" });
    if (disabledFor) logEvent(processLog(), "warn", "webhook endpoint disabled", { endpointId: item.endpointId, reason: disabledFor });
  }

  /** An endpoint the sender disabled: its audit row (the system's) and an e-mail to every admin, in the transaction that disabled it. */
  private async noteDisabled(trx: Parameters<typeof recordAudit>[0], endpointId: string, reason: "gone" | "failing", failingSince: string | null): Promise<void> {
    const { clock, config, jobs } = this.deps;
    const endpoint = await trx.selectFrom("webhook_endpoints").select(["url", "description"]).where("id", "=", endpointId).executeTakeFirst();
    if (!endpoint) return;
    const why =
      reason === "gone"
        ? "it answered 410 Gone (the receiver says the endpoint no longer exists)"
        : `every delivery to it has failed since ${failingSince?.slice(0, 16).replace("T", " ")} UTC (${WEBHOOK_FAILING_DAYS} days)`;
    await recordAudit(
      trx,
      {
        actor: null,
        action: "webhook_endpoint.disable",
        target: { type: "webhook_endpoint", id: endpointId, label: endpoint.url },
        before: { enabled: true },
        after: { enabled: false },
        details: { reason },
      },
      clock,
    );
    const admins = (await selectAdminEmails(trx, config.adminEmailDomain, 100)).filter((u) => isAdminUser(u, config.adminEmailDomain));
    const text = [
      `The webhook endpoint ${endpoint.url}${endpoint.description ? ` (${endpoint.description})` : ""} was disabled: ${why}.`,
      "",
      "Nothing more is sent to it until an admin enables it again on the Integrations screen; what is decided meanwhile waits for it.",
      `${config.publicUrl}/integrations`,
    ].join("\n");
    for (const admin of admins) {
      await queueMail(trx, jobs, clock, { to: admin.email, subject: "A webhook endpoint was disabled", text, reference: `webhook-endpoint:${endpointId}` });
    }
  }

  /** The minutely sweep: deliveries whose sender died (lease ended), and finished ones older than the retention. */
  async sweep(shouldStop?: () => Promise<boolean>): Promise<{ started: number; deleted: number }> {
    const started = await this.fill();
    const cutoff = new Date(this.deps.clock.now().getTime() - WEBHOOK_RETENTION_DAYS * DAY_MS).toISOString();
    const options = { pace: "background" as const, ...(shouldStop ? { shouldStop } : {}) };
    const deliveries = await inChunks((size) => deleteOldDeliveries(this.db, cutoff, size), options);
    const events = await inChunks((size) => deleteOldEvents(this.db, cutoff, size), options);
    return { started, deleted: deliveries.total + events.total };
  }
}

type SendingEndpoint = Pick<WebhookEndpointRow, "id" | "url" | "secret" | "previous_secret" | "previous_secret_expires_at">;

/** The secrets that sign now: the current one, and the previous one until its 24 hours after a rotation end. */
export function liveSecrets(endpoint: SendingEndpoint, key: SealingKey, now: Date): string[] {
  const secrets = [key.open(endpoint.secret)];
  if (endpoint.previous_secret && endpoint.previous_secret_expires_at && Date.parse(endpoint.previous_secret_expires_at) > now.getTime()) secrets.push(key.open(endpoint.previous_secret));
  return secrets;
}

/** The sender of this process on its job worker: woken by every decision's job, each retry's job and the sweep. */
export function webhookJobs(worker: JobWorker, deps: AppDeps): void {
  const sender = new WebhookSender(deps);
  worker.register(WEBHOOK_DELIVERY_JOB, async () => ({ started: await sender.fill() }));
  worker.register(WEBHOOK_SWEEP_JOB, ({ shouldStop }) => sender.sweep(shouldStop));
  worker.schedule(WEBHOOK_SWEEP_JOB, SWEEP_EVERY_MS);
}
