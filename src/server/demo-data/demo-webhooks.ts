import { randomBytes } from "node:crypto";
import type { Executor } from "../platform/db/executor.ts";
import type { Vendor } from "../platform/db/schema.ts";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The demo endpoint: an example address (RFC 2606), which no delivery could ever reach. */
export const DEMO_WEBHOOK_URL = "https://storefront.example.com/webhooks/hki";
const ENDPOINT_ID = "0190d000-0000-7000-8000-00000000d001";

/**
 * The demo's webhook endpoint (docs/integration.md "Webhooks"), so the Integrations screen's
 * Webhooks section is not empty after `npm start`: the storefront's endpoint at an example
 * address, with a few deliveries (a test, an artist disabled, a product hidden, a setting that
 * failed every attempt). It is disabled, so nothing is sent to the example address, and its
 * secret is random bytes sealed with no key at all: it opens under none, so enabling it without
 * rotating its secret sends nothing either. An admin adds a real endpoint, or rotates this one.
 */
export async function seedDemoWebhooks(trx: Executor, options: { vendors: Vendor[]; now: Date; adminEmail: string }): Promise<number> {
  const t = options.now.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  await trx
    .insertInto("webhook_endpoints")
    .values({
      id: ENDPOINT_ID,
      url: DEMO_WEBHOOK_URL,
      description: "Storefront (demo: an example address, disabled)",
      events: JSON.stringify(["artist.status_changed", "artist.deleted", "product.status_changed", "featured_artist.changed", "settings.changed", "payout.paid", "payout.failed"]),
      enabled: 0,
      disabled_reason: "admin",
      disabled_at: iso(t - 10 * MINUTE_MS),
      secret: `v1.${randomBytes(60).toString("base64url")}`,
      previous_secret: null,
      previous_secret_expires_at: null,
      failing_since: null,
      last_success_at: iso(t - 2 * DAY_MS),
      created_by_email: options.adminEmail,
      created_at: iso(t - 30 * DAY_MS),
      updated_at: iso(t - 10 * MINUTE_MS),
    })
    .execute();

  const artist = options.vendors.find((v) => v.is_internal === 0) ?? options.vendors[0];
  const product = artist ? await trx.selectFrom("products").select(["id", "external_id"]).where("vendor_id", "=", artist.id).orderBy("id").limit(1).executeTakeFirst() : undefined;
  const events: Array<{
    n: number;
    type: string;
    agoMs: number;
    data: unknown;
    outcome: { status: "delivered" | "failed"; attempts: number; code: number | null; ms: number; error?: string; body?: string };
  }> = [
    { n: 1, type: "webhook.test", agoMs: 30 * DAY_MS, data: {}, outcome: { status: "delivered", attempts: 1, code: 204, ms: 84 } },
    {
      n: 2,
      type: "artist.status_changed",
      agoMs: 3 * DAY_MS,
      data: { vendorId: artist?.id ?? null, artistId: artist?.external_id ?? null, status: "inactive", reason: null },
      outcome: { status: "delivered", attempts: 2, code: 200, ms: 131, body: '{"received":true}' },
    },
    {
      n: 3,
      type: "product.status_changed",
      agoMs: 2 * DAY_MS,
      data: {
        productId: product?.id ?? null,
        externalProductId: product?.external_id ?? null,
        vendorId: artist?.id ?? null,
        artistId: artist?.external_id ?? null,
        status: "hidden",
        reason: "Uses a trademarked logo",
      },
      outcome: { status: "delivered", attempts: 1, code: 200, ms: 97 },
    },
    {
      n: 4,
      type: "settings.changed",
      agoMs: 1 * DAY_MS,
      data: { changes: { maintenance_mode: "false" } },
      outcome: { status: "failed", attempts: 9, code: 503, ms: 10_000, error: "Answered 503", body: "<html><body>Service Unavailable</body></html>" },
    },
  ];
  for (const e of events) {
    const id = `0190d000-0000-7000-8000-0000000e000${e.n}`;
    const created = iso(t - e.agoMs);
    const last = iso(t - e.agoMs + (e.outcome.attempts > 1 ? 17 * 3_600_000 : 1_000));
    await trx
      .insertInto("webhook_events")
      .values({ id, type: e.type, body: JSON.stringify({ id, type: e.type, createdAt: created, data: e.data }), created_at: created })
      .execute();
    await trx
      .insertInto("webhook_deliveries")
      .values({
        id: `0190d000-0000-7000-8000-0000000d100${e.n}`,
        endpoint_id: ENDPOINT_ID,
        event_id: id,
        event_type: e.type,
        status: e.outcome.status,
        attempts: e.outcome.attempts,
        next_attempt_at: null,
        locked_until: null,
        last_attempt_at: last,
        last_status_code: e.outcome.code,
        last_duration_ms: e.outcome.ms,
        last_error: e.outcome.error ?? null,
        last_response_body: e.outcome.body ?? null,
        delivered_at: e.outcome.status === "delivered" ? last : null,
        created_at: created,
        updated_at: last,
      })
      .execute();
  }
  return events.length;
}
