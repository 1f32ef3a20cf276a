import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveriesResponseSchema, webhookEndpointsResponseSchema } from "../../contract/integrations-webhooks.ts";
import { WebhookSender } from "../features/integrations/webhook-delivery.job.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../testing/test-app.ts";
import { DEMO_WEBHOOK_URL } from "./demo-webhooks.ts";

/** After `npm start` the Integrations screen's Webhooks section shows an endpoint and its log, and nothing goes to the example address. */
describe.each(testDatabaseKinds)("the demo's webhook endpoint (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  beforeAll(async () => {
    ctx = await createTestContext(kind, { seedDemo: true });
    admin = await ctx.createUser({ email: "demo-webhooks@hki.global", role: "admin" });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("lists one disabled endpoint at an example address, with delivered and failed deliveries of its events", async () => {
    const list = webhookEndpointsResponseSchema.parse(await (await ctx.request("/api/admin/integrations/webhooks", { token: admin.token })).json()).items;
    expect(list).toEqual([expect.objectContaining({ url: DEMO_WEBHOOK_URL, enabled: false, disabledReason: "admin" })]);
    expect(new URL(DEMO_WEBHOOK_URL).hostname.endsWith(".example.com")).toBe(true);
    const res = await ctx.request(`/api/admin/integrations/webhooks/${list[0]!.id}/deliveries`, { token: admin.token });
    const { deliveries } = webhookDeliveriesResponseSchema.parse(await res.json());
    expect(deliveries.map((d) => [d.eventType, d.status])).toEqual([
      ["settings.changed", "failed"],
      ["product.status_changed", "delivered"],
      ["artist.status_changed", "delivered"],
      ["webhook.test", "delivered"],
    ]);
    expect(deliveries[0]).toMatchObject({ attempts: 9, lastStatusCode: 503, nextAttemptAt: null });
  });

  it("sends nothing while it is disabled, and enabled without a rotation its thrown-away secret signs nothing", async () => {
    const [endpoint] = webhookEndpointsResponseSchema.parse(await (await ctx.request("/api/admin/integrations/webhooks", { token: admin.token })).json()).items;
    const decide = () => ctx.request("/api/admin/settings", { method: "PUT", token: admin.token, json: { maintenance_mode: "true" } });
    const enabled = await ctx.request(`/api/admin/integrations/webhooks/${endpoint!.id}`, { method: "PATCH", token: admin.token, json: { enabled: true } });
    expect(enabled.status).toBe(200);
    expect((await decide()).status).toBe(200);
    const sender = new WebhookSender(ctx.deps);
    await sender.fill();
    await sender.idle();
    await sender.stop();
    const { deliveries } = webhookDeliveriesResponseSchema.parse(await (await ctx.request(`/api/admin/integrations/webhooks/${endpoint!.id}/deliveries`, { token: admin.token })).json());
    expect(deliveries[0]).toMatchObject({ eventType: "settings.changed", attempts: 1, lastStatusCode: null, lastError: expect.stringMatching(/cannot be opened.*rotate the secret/) });
  });
});
