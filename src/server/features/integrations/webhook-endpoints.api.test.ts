import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  MAX_WEBHOOK_ENDPOINTS,
  webhookDeliveriesResponseSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEndpointsResponseSchema,
  webhookEndpointWithSecretSchema,
} from "../../../contract/integrations-webhooks.ts";
import { SealingKey } from "../../platform/crypto/sealed-text.ts";
import { webhookSealingKey } from "../../platform/identity/webhook-sealing-key.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
const URL_A = "https://shop.example.com/webhooks/hki";

describe.each(testDatabaseKinds)("webhook endpoints API (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };

  const api = (path: string, init: { method?: string; json?: unknown; token?: string } = {}) =>
    ctx.request(`/api/admin/integrations/webhooks${path}`, { method: init.method ?? "GET", token: init.token ?? admin.token, ...(init.json !== undefined ? { json: init.json } : {}) });
  const create = async (json: unknown = { url: URL_A, events: ["artist.status_changed"] }) => {
    const res = await api("", { method: "POST", json });
    expect(res.status).toBe(201);
    return webhookEndpointWithSecretSchema.parse(await res.json());
  };
  const audit = (action: string) => ctx.database.db.selectFrom("audit_log").select(["action", "target_id", "before_value", "after_value", "details"]).where("action", "=", action).execute();
  const rows = (table: "webhook_endpoints" | "webhook_deliveries" | "webhook_events") => ctx.database.db.selectFrom(table).selectAll().execute();

  describe("outside production", () => {
    beforeEach(async () => {
      ctx = await createTestContext(kind, { now: NOW });
      admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
    });
    afterEach(async () => {
      await ctx.close();
    });

    it("adds an endpoint with its whsec_ secret shown once, sealed at rest, in no audit row; the list shows it without the secret", async () => {
      const { endpoint, secret } = await create({ url: URL_A, events: ["artist.status_changed", "product.status_changed"], description: "Storefront (production)" });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
      expect(endpoint).toMatchObject({
        url: URL_A,
        events: ["artist.status_changed", "product.status_changed"],
        description: "Storefront (production)",
        enabled: true,
        disabledReason: null,
        failingSince: null,
        previousSecretExpiresAt: null,
        createdBy: "boss@hki.global",
        createdAt: NOW,
      });

      const stored = (await rows("webhook_endpoints"))[0]!;
      expect(JSON.stringify(stored)).not.toContain(secret.slice(6));
      const key = await webhookSealingKey(ctx.database.db, ctx.config);
      expect(key.open(stored.secret)).toBe(secret);
      expect(() => SealingKey.generate().key.open(stored.secret)).toThrow();

      const list = webhookEndpointsResponseSchema.parse(await (await api("")).json()).items;
      expect(list).toEqual([endpoint]);
      expect(JSON.stringify(list)).not.toContain(secret.slice(6));
      const rowsOfAudit = await audit("webhook_endpoint.create");
      expect(rowsOfAudit).toHaveLength(1);
      expect(JSON.stringify(rowsOfAudit)).not.toContain(secret.slice(6));
    });

    it("refuses bad input with the field named and changes nothing", async () => {
      for (const [json, field] of [
        [{ url: "not a url", events: ["artist.deleted"] }, "url"],
        [{ url: "ftp://shop.example.com/x", events: ["artist.deleted"] }, "url"],
        [{ url: "https://user:pw@shop.example.com/x", events: ["artist.deleted"] }, "url"],
        [{ url: URL_A, events: [] }, "events"],
        [{ url: URL_A, events: ["artist.created"] }, "events.0"],
        [{ url: URL_A, events: ["webhook.test"] }, "events.0"],
        [{ url: URL_A, events: ["artist.deleted", "artist.deleted"] }, "events"],
        [{ url: URL_A, events: ["artist.deleted"], description: "a\u202Eb" }, "description"],
        [{ url: URL_A, events: ["artist.deleted"], secret: "whsec_mine" }, "secret"],
      ] as const) {
        const res = await api("", { method: "POST", json });
        expect(res.status, JSON.stringify(json)).toBe(400);
        expect(Object.keys(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields), JSON.stringify(json)).toContain(field);
      }
      expect(await rows("webhook_endpoints")).toHaveLength(0);
      expect(await audit("webhook_endpoint.create")).toHaveLength(0);
    });

    it(`holds at most ${MAX_WEBHOOK_ENDPOINTS} endpoints (409)`, async () => {
      for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) await create({ url: `${URL_A}/${i}`, events: ["artist.deleted"] });
      const res = await api("", { method: "POST", json: { url: URL_A, events: ["artist.deleted"] } });
      expect(res.status).toBe(409);
    });

    it("changes URL, events, description and enabled, each change audited once with before and after; a change of nothing writes no row", async () => {
      const { endpoint } = await create();
      let res = await api(`/${endpoint.id}`, { method: "PATCH", json: { enabled: false } });
      expect(res.status).toBe(200);
      expect(webhookEndpointSchema.parse(((await res.json()) as { endpoint: unknown }).endpoint)).toMatchObject({ enabled: false, disabledReason: "admin", disabledAt: NOW });
      res = await api(`/${endpoint.id}`, { method: "PATCH", json: { enabled: false } });
      expect(res.status).toBe(200);
      res = await api(`/${endpoint.id}`, { method: "PATCH", json: { enabled: true, url: `${URL_A}/v2`, events: ["payout.paid"], description: "New" } });
      const after = webhookEndpointSchema.parse(((await res.json()) as { endpoint: unknown }).endpoint);
      expect(after).toMatchObject({ enabled: true, disabledReason: null, url: `${URL_A}/v2`, events: ["payout.paid"], description: "New" });
      const rowsOfAudit = await audit("webhook_endpoint.update");
      expect(rowsOfAudit).toHaveLength(2);
      expect(JSON.parse(rowsOfAudit[0]!.after_value!)).toEqual({ enabled: false });
      expect(JSON.parse(rowsOfAudit[1]!.before_value!)).toEqual({ url: URL_A, events: ["artist.status_changed"], description: null, enabled: false });

      expect((await api(`/${endpoint.id}`, { method: "PATCH", json: {} })).status).toBe(400);
      expect((await api(`/${endpoint.id}`, { method: "PATCH", json: { enabled: "yes" } })).status).toBe(400);
      expect((await api("/no-such-endpoint", { method: "PATCH", json: { enabled: true } })).status).toBe(404);
    });

    it("sends a test to one endpoint only, lists deliveries newest first by status with a cursor, and resends as a new delivery", async () => {
      const { endpoint } = await create();
      const other = await create({ url: `${URL_A}/other`, events: ["artist.status_changed"] });
      const deliveries: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await api(`/${endpoint.id}/test`, { method: "POST" });
        expect(res.status).toBe(201);
        const { delivery } = (await res.json()) as { delivery: unknown };
        expect(webhookDeliverySchema.parse(delivery)).toMatchObject({ eventType: "webhook.test", status: "pending", attempts: 0, nextAttemptAt: NOW });
        deliveries.push((delivery as { id: string }).id);
      }
      const events = await rows("webhook_events");
      expect(events.map((e) => JSON.parse(e.body) as { type: string; data: unknown })).toEqual(Array(3).fill(expect.objectContaining({ type: "webhook.test", data: {} })));
      const page1 = webhookDeliveriesResponseSchema.parse(await (await api(`/${endpoint.id}/deliveries?limit=2`)).json());
      expect(page1.deliveries.map((d) => d.id)).toEqual([deliveries[2], deliveries[1]]);
      const page2 = webhookDeliveriesResponseSchema.parse(await (await api(`/${endpoint.id}/deliveries?limit=2&cursor=${page1.nextCursor}`)).json());
      expect(page2).toEqual({ deliveries: [expect.objectContaining({ id: deliveries[0] })], nextCursor: null });
      expect(webhookDeliveriesResponseSchema.parse(await (await api(`/${other.endpoint.id}/deliveries`)).json()).deliveries).toEqual([]);

      await ctx.database.db.updateTable("webhook_deliveries").set({ status: "failed", attempts: 9, next_attempt_at: null, last_status_code: 500 }).where("id", "=", deliveries[0]!).execute();
      const failed = webhookDeliveriesResponseSchema.parse(await (await api(`/${endpoint.id}/deliveries?status=failed`)).json()).deliveries;
      expect(failed.map((d) => [d.id, d.status, d.attempts, d.lastStatusCode, d.nextAttemptAt])).toEqual([[deliveries[0], "failed", 9, 500, null]]);
      expect((await api(`/${endpoint.id}/deliveries?status=lost`)).status).toBe(400);

      const resent = await api(`/${endpoint.id}/deliveries/${deliveries[0]}/resend`, { method: "POST" });
      expect(resent.status).toBe(201);
      const { delivery } = (await resent.json()) as { delivery: { id: string; eventId: string; status: string } };
      expect(delivery).toMatchObject({ status: "pending", eventId: failed[0]!.eventId });
      expect(delivery.id).not.toBe(deliveries[0]);
      expect((await audit("webhook_delivery.resend")).map((r) => JSON.parse(r.details) as { deliveryId: string })).toEqual([expect.objectContaining({ deliveryId: deliveries[0] })]);
      // Another endpoint's delivery is not this endpoint's.
      expect((await api(`/${other.endpoint.id}/deliveries/${deliveries[0]}/resend`, { method: "POST" })).status).toBe(404);

      await api(`/${endpoint.id}`, { method: "PATCH", json: { enabled: false } });
      expect((await api(`/${endpoint.id}/test`, { method: "POST" })).status).toBe(409);
      expect((await api(`/${endpoint.id}/deliveries/${deliveries[1]}/resend`, { method: "POST" })).status).toBe(409);
    });

    it("rotates the secret (the old one signs beside it for 24 hours) and deletes an endpoint with its log", async () => {
      const { endpoint, secret } = await create();
      const res = await api(`/${endpoint.id}/rotate-secret`, { method: "POST" });
      expect(res.status).toBe(200);
      const rotated = webhookEndpointWithSecretSchema.parse(await res.json());
      expect(rotated.secret).not.toBe(secret);
      expect(rotated.endpoint.previousSecretExpiresAt).toBe("2026-11-23T12:00:00.000Z");
      const key = await webhookSealingKey(ctx.database.db, ctx.config);
      const stored = (await rows("webhook_endpoints"))[0]!;
      expect([key.open(stored.secret), key.open(stored.previous_secret!)]).toEqual([rotated.secret, secret]);
      expect(JSON.stringify(await audit("webhook_endpoint.rotate_secret"))).not.toContain(rotated.secret.slice(6));

      await api(`/${endpoint.id}/test`, { method: "POST" });
      const deleted = await api(`/${endpoint.id}`, { method: "DELETE" });
      expect(deleted.status).toBe(200);
      expect(await rows("webhook_endpoints")).toHaveLength(0);
      expect(await rows("webhook_deliveries")).toHaveLength(0);
      expect(await audit("webhook_endpoint.delete")).toHaveLength(1);
      expect((await api(`/${endpoint.id}`, { method: "DELETE" })).status).toBe(404);
      expect((await api(`/${endpoint.id}/deliveries`)).status).toBe(404);
    });

    it("is for admins only: a viewer reads nothing and changes nothing", async () => {
      const { endpoint } = await create();
      const viewer = await ctx.createUser({ email: "viewer@example.com", role: "viewer" });
      expect((await api("", { method: "POST", token: viewer.token, json: { url: URL_A, events: ["artist.deleted"] } })).status).toBe(403);
      expect((await api(`/${endpoint.id}/rotate-secret`, { method: "POST", token: viewer.token })).status).toBe(403);
      expect(await rows("webhook_endpoints")).toHaveLength(1);
    });
  });

  describe("in production", () => {
    afterEach(async () => {
      await ctx.close();
    });
    const start = async (env: Record<string, string> = {}) => {
      ctx = await createTestContext(kind, { now: NOW, env: { NODE_ENV: "production", PUBLIC_URL: "https://admin.example.com", WEBHOOK_SECRETS_KEY: KEY, ...env } });
      admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
    };

    it("takes https only and no private, loopback or link-local address (400 naming url), unless WEBHOOK_ALLOW_PRIVATE_URLS=true; seals with WEBHOOK_SECRETS_KEY", async () => {
      await start();
      for (const url of ["http://shop.example.com/hook", "https://127.0.0.1/hook", "https://10.0.0.7/hook", "https://169.254.169.254/latest", "https://[::1]/hook", "https://localhost/hook"]) {
        const res = await api("", { method: "POST", json: { url, events: ["artist.deleted"] } });
        expect(res.status, url).toBe(400);
        expect(Object.keys(((await res.json()) as { error: { fields: object } }).error.fields), url).toEqual(["url"]);
      }
      expect(await rows("webhook_endpoints")).toHaveLength(0);
      const { secret } = await create();
      expect(SealingKey.parse(KEY).open((await rows("webhook_endpoints"))[0]!.secret)).toBe(secret);
      const { endpoint } = await create({ url: URL_A, events: ["artist.deleted"] });
      expect((await api(`/${endpoint.id}`, { method: "PATCH", json: { url: "https://10.0.0.7/hook" } })).status).toBe(400);
    });

    it("WEBHOOK_ALLOW_PRIVATE_URLS=true lets a private receiver in", async () => {
      await start({ WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
      await create({ url: "http://10.0.0.7/hook", events: ["artist.deleted"] });
    });
  });
});
