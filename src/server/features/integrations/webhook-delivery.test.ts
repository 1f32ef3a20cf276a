import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS, webhookDeliveriesResponseSchema, webhookEndpointWithSecretSchema } from "../../../contract/integrations-webhooks.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { readAttention } from "../dashboard/attention.providers.ts";
import { webhookAttempts } from "../../platform/metrics/metrics.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { startWebhookReceiver, verifyWith, type WebhookReceiver } from "../../testing/webhook-receiver.ts";
import { nextAttemptAt, WebhookSender } from "./webhook-delivery.job.ts";
import { signatures } from "./webhook-sender.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const DAY_MS = 86_400_000;

describe.each(testDatabaseKinds)("webhook delivery (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  let receiver: WebhookReceiver;
  let sender: WebhookSender;

  const addEndpoint = async (url: string, events: string[] = ["artist.status_changed"]) => {
    const res = await ctx.request("/api/admin/integrations/webhooks", { method: "POST", token: admin.token, json: { url, events } });
    expect(res.status).toBe(201);
    return webhookEndpointWithSecretSchema.parse(await res.json());
  };
  const vendor = (slug: string) =>
    createVendor(ctx.database.db, { name: `Artist ${slug}`, ownerName: "Owner", email: `${slug}@example.com`, slug, isInternal: false, isActive: true, joinedAt: NOW }, ctx.clock);
  const disable = async (vendorId: string) => {
    const res = await ctx.request(`/api/vendors/${vendorId}/status`, { method: "PATCH", token: admin.token, json: { isActive: false, reason: "Orders not shipped" } });
    expect(res.status).toBe(200);
  };
  const deliveries = async (endpointId: string) => {
    const res = await ctx.request(`/api/admin/integrations/webhooks/${endpointId}/deliveries`, { token: admin.token });
    return webhookDeliveriesResponseSchema.parse(await res.json()).deliveries;
  };
  const send = async () => {
    await sender.fill();
    await sender.idle();
  };

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
    // The clock moves days ahead here: the admin's session lasts as long.
    await ctx.database.db.updateTable("sessions").set({ expires_at: "2030-01-01T00:00:00.000Z" }).execute();
    receiver = await startWebhookReceiver();
    // The retry schedule's jitter at its middle: each delay exactly as scheduled.
    sender = new WebhookSender(ctx.deps, { random: () => 0.5, timeoutMs: 1_000 });
  });
  afterEach(async () => {
    await sender.stop();
    await receiver.close();
    await ctx.close();
  });

  it("delivers a decision signed as Standard Webhooks sign: the receiver verifies it with the standardwebhooks package", async () => {
    const { endpoint, secret } = await addEndpoint(receiver.url);
    receiver.setSecrets([secret]);
    const v = await vendor("ada");
    await disable(v.id);
    await send();

    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.verified).toEqual({
      id: got.headers["webhook-id"],
      type: "artist.status_changed",
      createdAt: NOW,
      data: { vendorId: v.id, artistId: null, status: "inactive", reason: "Orders not shipped" },
    });
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ eventType: "artist.status_changed", status: "delivered", attempts: 1, lastStatusCode: 204, nextAttemptAt: null, eventId: got.headers["webhook-id"] });
    expect(delivery!.lastDurationMs).toBeGreaterThanOrEqual(0);

    // Sent once: another round finds nothing due.
    await send();
    expect(receiver.received).toHaveLength(1);
  });

  it("a forged, altered, replayed (timestamp over 5 minutes old) or wrong-secret delivery fails verification", async () => {
    const { secret } = await addEndpoint(receiver.url);
    await disable((await vendor("bea")).id);
    await send();
    const { headers, body } = receiver.received[0]!;
    expect(() => verifyWith(secret, body, headers)).not.toThrow();

    const other = (await addEndpoint(`${receiver.url}?other`)).secret;
    expect(() => verifyWith(other, body, headers)).toThrow();
    expect(() => verifyWith(secret, body.replace('"inactive"', '"active"'), headers)).toThrow();
    expect(() => verifyWith(secret, body, { ...headers, "webhook-id": "evt_forged" })).toThrow();
    expect(() => verifyWith(secret, body, { ...headers, "webhook-signature": "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" })).toThrow();
    const old = new Date(Date.now() - 6 * 60_000);
    const replayed = { ...headers, "webhook-timestamp": String(Math.floor(old.getTime() / 1000)), "webhook-signature": signatures([secret], { id: headers["webhook-id"]!, body }, old) };
    expect(() => verifyWith(secret, body, replayed)).toThrow(/too old/i);
  });

  it("retries a failing receiver on the schedule (5 s, 30 s, 2 min, … 12 h) with the clock under test, then gives up", async () => {
    const { endpoint } = await addEndpoint(receiver.url);
    receiver.answer = () => ({ status: 500, body: "down for maintenance" });
    await disable((await vendor("cy")).id);

    for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt++) {
      await send();
      expect(receiver.received).toHaveLength(attempt);
      const [d] = await deliveries(endpoint.id);
      expect(d).toMatchObject({ attempts: attempt, lastStatusCode: 500, lastResponseBody: "down for maintenance" });
      if (attempt === WEBHOOK_MAX_ATTEMPTS) {
        expect(d).toMatchObject({ status: "failed", nextAttemptAt: null });
        break;
      }
      const delay = WEBHOOK_RETRY_DELAYS_MS[attempt - 1]!;
      expect(d!.status).toBe("pending");
      expect(Date.parse(d!.nextAttemptAt!) - ctx.clock.now().getTime()).toBe(delay);
      // Not before its time…
      ctx.clock.advance(delay - 1);
      await send();
      expect(receiver.received).toHaveLength(attempt);
      // …and at it.
      ctx.clock.advance(1);
    }
    // Each retry was queued as a job at its time (the job system wakes the sender).
    const retryJobs = await ctx.database.db.selectFrom("jobs").select(["run_after"]).where("dedupe_key", "like", "webhooks.deliver:retry:%").orderBy("run_after").execute();
    expect(retryJobs).toHaveLength(WEBHOOK_MAX_ATTEMPTS - 1);
  });

  it("counts each attempt by result where an operator's alerts look (hki_webhook_attempts_total)", async () => {
    const count = async (result: string) => (await webhookAttempts.get()).values.find((v) => v.labels.result === result)?.value ?? 0;
    const before = { retrying: await count("retrying"), delivered: await count("delivered"), failed: await count("failed") };
    await addEndpoint(receiver.url);
    receiver.answer = (_request, n) => (n === 1 ? { status: 503 } : { status: 200 });
    await disable((await vendor("metric")).id);
    await send();
    ctx.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
    await send();
    expect(receiver.received).toHaveLength(2);
    expect({ retrying: await count("retrying"), delivered: await count("delivered"), failed: await count("failed") }).toEqual({
      retrying: before.retrying + 1,
      delivered: before.delivered + 1,
      failed: before.failed,
    });
  });

  it("spreads each retry within ±20 % of its delay", () => {
    const now = new Date(NOW);
    for (const [attempts, base] of WEBHOOK_RETRY_DELAYS_MS.map((d, i) => [i + 1, d] as const)) {
      expect(Date.parse(nextAttemptAt(attempts, now, () => 0)!) - now.getTime()).toBe(base * 0.8);
      expect(Date.parse(nextAttemptAt(attempts, now, () => 1)!) - now.getTime()).toBe(base * 1.2);
    }
    expect(nextAttemptAt(WEBHOOK_MAX_ATTEMPTS, now)).toBeNull();
  });

  it("after a rotation signs with both secrets for 24 hours, then with the new one only", async () => {
    const { endpoint, secret: oldSecret } = await addEndpoint(receiver.url);
    const rotated = await ctx.request(`/api/admin/integrations/webhooks/${endpoint.id}/rotate-secret`, { method: "POST", token: admin.token });
    expect(rotated.status).toBe(200);
    const { secret: newSecret, endpoint: after } = webhookEndpointWithSecretSchema.parse(await rotated.json());
    expect(newSecret).not.toBe(oldSecret);
    expect(after.previousSecretExpiresAt).toBe(new Date(Date.parse(NOW) + DAY_MS).toISOString());
    receiver.setSecrets([oldSecret, newSecret]);

    await disable((await vendor("dee")).id);
    await send();
    const first = receiver.received[0]!;
    expect(first.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(first.verifiedBy).toEqual([0, 1]);

    ctx.clock.advance(DAY_MS + 1);
    await disable((await vendor("eve")).id);
    await send();
    const second = receiver.received[1]!;
    expect(second.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(second.verifiedBy).toEqual([1]);
  });

  it("410 Gone disables the endpoint at once, tells the admins by e-mail and the attention inbox, and sends it nothing more", async () => {
    const { endpoint } = await addEndpoint(receiver.url);
    receiver.answer = () => ({ status: 410 });
    await disable((await vendor("fay")).id);
    await send();
    const [d] = await deliveries(endpoint.id);
    expect(d).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 410, nextAttemptAt: null });
    const list = (await (await ctx.request("/api/admin/integrations/webhooks", { token: admin.token })).json()) as { items: Array<{ enabled: boolean; disabledReason: string }> };
    expect(list.items[0]).toMatchObject({ enabled: false, disabledReason: "gone" });
    // The admins' mails about the endpoint (the artist's own mail about its suspension aside).
    const mails = await ctx.database.db.selectFrom("mail_outbox").select(["to_address", "subject", "text_body"]).where("reference", "like", "webhook-endpoint:%").execute();
    expect(mails.map((m) => m.to_address).sort()).toEqual(["boss@hki.global", "root-admin@hki.global"]);
    expect(mails[0]!.text_body).toContain(receiver.url);
    expect((await readAttention(ctx.database.db, ctx.clock.now())).find((i) => i.key === "webhook_endpoints_disabled")).toMatchObject({ count: 1, href: "/integrations" });

    await disable((await vendor("gus")).id);
    await send();
    expect(receiver.received).toHaveLength(1);
  });

  it("an endpoint failing every attempt for 3 days is disabled; one success in between starts the count again", async () => {
    const { endpoint } = await addEndpoint(receiver.url);
    let failing = true;
    receiver.answer = () => (failing ? "drop" : { status: 200 });
    const decide = async (slug: string) => {
      await disable((await vendor(slug)).id);
      await send();
    };
    await decide("h1");
    ctx.clock.advance(2 * DAY_MS);
    failing = false;
    await decide("h2");
    failing = true;
    ctx.clock.advance(2 * DAY_MS);
    await decide("h3");
    let state = (await ctx.database.db.selectFrom("webhook_endpoints").select(["enabled", "failing_since"]).where("id", "=", endpoint.id).executeTakeFirstOrThrow())!;
    expect(Number(state.enabled)).toBe(1);
    ctx.clock.advance(3 * DAY_MS);
    await decide("h4");
    state = (await ctx.database.db.selectFrom("webhook_endpoints").select(["enabled", "disabled_reason"]).where("id", "=", endpoint.id).executeTakeFirstOrThrow()) as typeof state & {
      disabled_reason: string;
    };
    expect(Number(state.enabled)).toBe(0);
    expect((state as unknown as { disabled_reason: string }).disabled_reason).toBe("failing");
    expect(await ctx.database.db.selectFrom("mail_outbox").select("subject").execute()).not.toHaveLength(0);
  });

  it("keeps at most 1 kB of an answer's body and gives up on an answer after the timeout", async () => {
    const { endpoint } = await addEndpoint(receiver.url);
    receiver.answer = (_r, n) => (n === 1 ? { status: 500, body: "x".repeat(100_000) } : { status: 200, delayMs: 3_000 });
    await disable((await vendor("ivy")).id);
    await send();
    let [d] = await deliveries(endpoint.id);
    expect(d!.lastResponseBody).toHaveLength(1024);
    ctx.clock.advance(10_000);
    const started = Date.now();
    await send();
    expect(Date.now() - started).toBeLessThan(2_500);
    [d] = await deliveries(endpoint.id);
    expect(d).toMatchObject({ status: "pending", attempts: 2, lastStatusCode: null, lastError: "No answer within 1 s" });
  });

  it("a slow endpoint does not delay another", async () => {
    const slow = await startWebhookReceiver();
    try {
      slow.answer = () => ({ status: 200, delayMs: 900 });
      await addEndpoint(slow.url);
      const fast = await addEndpoint(receiver.url);
      await disable((await vendor("jo")).id);
      await sender.fill();
      // The fast receiver is answered while the slow one still waits.
      const until = Date.now() + 800;
      while (Date.now() < until && (await deliveries(fast.endpoint.id))[0]?.status !== "delivered") await new Promise((r) => setTimeout(r, 20));
      expect((await deliveries(fast.endpoint.id))[0]?.status).toBe("delivered");
      expect(slow.received).toHaveLength(1);
      await sender.idle();
    } finally {
      await slow.close();
    }
  });
});

describe("a webhook secret is never logged", () => {
  it("creating, rotating, sending (failing and 410) at LOG_LEVEL=debug prints neither secret, nor any audit row or error log holds it", async () => {
    const printed: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    const spy = vi.spyOn(process.stdout, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      printed.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write);
    const ctx = await createTestContext("sqlite", { now: NOW, env: { LOG_LEVEL: "debug" } });
    const receiver = await startWebhookReceiver();
    const sender = new WebhookSender(ctx.deps, { timeoutMs: 1_000 });
    try {
      const admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
      const made = webhookEndpointWithSecretSchema.parse(
        await (await ctx.request("/api/admin/integrations/webhooks", { method: "POST", token: admin.token, json: { url: receiver.url, events: ["artist.status_changed"] } })).json(),
      );
      const rotated = webhookEndpointWithSecretSchema.parse(
        await (await ctx.request(`/api/admin/integrations/webhooks/${made.endpoint.id}/rotate-secret`, { method: "POST", token: admin.token })).json(),
      );
      receiver.answer = (_r, n) => (n === 1 ? { status: 500 } : { status: 410 });
      await ctx.request(`/api/admin/integrations/webhooks/${made.endpoint.id}/test`, { method: "POST", token: admin.token });
      await sender.fill();
      await sender.idle();
      ctx.clock.advance(10_000);
      await sender.fill();
      await sender.idle();
      expect(receiver.received).toHaveLength(2);
      const stored = JSON.stringify([
        await ctx.database.db.selectFrom("audit_log").selectAll().execute(),
        await ctx.database.db.selectFrom("error_logs").selectAll().execute(),
        await ctx.database.db.selectFrom("mail_outbox").selectAll().execute(),
      ]);
      for (const secret of [made.secret, rotated.secret]) {
        const bare = secret.slice("whsec_".length);
        expect(printed.join("\n")).not.toContain(bare);
        expect(stored).not.toContain(bare);
      }
      expect(printed.join("\n")).toContain("webhook endpoint disabled");
    } finally {
      spy.mockRestore();
      await sender.stop();
      await receiver.close();
      await ctx.close();
    }
  });
});
