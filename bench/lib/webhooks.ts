import { parseDatabaseUrl } from "../../src/server/platform/config/config.ts";
import { openDatabase } from "../../src/server/platform/db/connect.ts";
import { startWebhookReceiver } from "../../src/server/testing/webhook-receiver.ts";
import { type Client, createClient, percentile } from "./latency.ts";

/** What the webhook part of the benchmark measured (docs/integration.md "Webhooks"). */
export interface WebhookFigures {
  /** Events of one bulk decision (products hidden at once) delivered to a local receiver, per second, first to last receipt. Target: ≥ 500. */
  eventsPerSecond: number;
  burstEvents: number;
  burstSeconds: number;
  /** From a decision's request to its delivery's receipt, decisions taken one after another. Target: p95 ≤ 2 s. */
  decisionToDelivery: { n: number; p50Ms: number; p95Ms: number; maxMs: number };
  /** The screens read meanwhile (dashboard stats, vendor list), one after another. */
  screensMeanwhile: { n: number; p50Ms: number; p95Ms: number; maxMs: number };
  /** Deliveries that did not verify with the endpoint's secret (must be 0). */
  unverified: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? Number.NaN };
};

/**
 * Webhooks through the real server: an endpoint at a receiver in this process (verifying every
 * delivery with the `standardwebhooks` package), then (1) a burst: `burst` listed products hidden
 * in one bulk decision, each a `product.status_changed`, timed from the first receipt to the last;
 * (2) latency: `decisions` settings changes one after another, each timed from its request to its
 * event's receipt; the screens are read all along. The products are restored afterwards and the
 * endpoint deleted; `removeBenchWebhooks` takes the rest out of the cached data set.
 */
export async function benchWebhooks(
  server: { baseUrl: string; token: string; databaseUrl: string },
  options: { burst: number; decisions: number; log: (line: string) => void },
): Promise<WebhookFigures> {
  const headers = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };
  const receiver = await startWebhookReceiver();
  const made = await fetch(`${server.baseUrl}/api/admin/integrations/webhooks`, {
    method: "POST",
    headers,
    body: JSON.stringify({ url: receiver.url, events: ["product.status_changed", "settings.changed"], description: "Benchmark receiver" }),
  });
  if (made.status !== 201) throw new Error(`adding the endpoint answered ${made.status}: ${await made.text()}`);
  const { endpoint, secret } = (await made.json()) as { endpoint: { id: string }; secret: string };
  receiver.setSecrets([secret]);

  const reader: Client = createClient(server.baseUrl, server.token);
  const screenTimes: number[] = [];
  let reading = true;
  const screens = (async () => {
    const paths = ["/api/admin/dashboard/stats", "/api/admin/vendors?page=1&limit=20"];
    for (let i = 0; reading; i++) {
      const start = process.hrtime.bigint();
      const res = await reader.get(paths[i % paths.length]!);
      if (res.status !== 200) throw new Error(`a screen answered ${res.status} meanwhile`);
      screenTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  })();

  try {
    // (1) The burst.
    const database = openDatabase(parseDatabaseUrl(server.databaseUrl));
    let ids: string[];
    try {
      ids = (await database.db.selectFrom("products").select("id").where("status", "=", "listed").orderBy("id").limit(options.burst).execute()).map((r) => r.id);
    } finally {
      await database.close();
    }
    const hidden = await fetch(`${server.baseUrl}/api/admin/products/bulk-status`, { method: "POST", headers, body: JSON.stringify({ ids, status: "hidden", reason: "Benchmark" }) });
    if (hidden.status !== 200) throw new Error(`hiding answered ${hidden.status}: ${await hidden.text()}`);
    const burstOf = () => receiver.received.filter((r) => r.verified?.type === "product.status_changed");
    const deadline = Date.now() + 120_000;
    while (new Set(burstOf().map((r) => r.verified!.id)).size < ids.length && Date.now() < deadline) await sleep(20);
    const burst = burstOf();
    const burstSeconds = burst.length > 1 ? (burst.at(-1)!.at - burst[0]!.at) / 1000 : Number.NaN;
    const delivered = new Set(burst.map((r) => r.verified!.id)).size;
    options.log(`webhooks: ${delivered} of ${ids.length} events of one bulk decision delivered in ${burstSeconds.toFixed(2)} s = ${(delivered / burstSeconds).toFixed(0)}/s`);

    // (2) Decision to delivery, one decision after another.
    const latencies: number[] = [];
    for (let i = 0; i < options.decisions; i++) {
      const value = `Benchmark ${Date.now()}-${i}`;
      const start = Date.now();
      const res = await fetch(`${server.baseUrl}/api/admin/settings`, { method: "PUT", headers, body: JSON.stringify({ announcement_message: value }) });
      await res.text();
      if (res.status !== 200) throw new Error(`a settings change answered ${res.status}`);
      const until = Date.now() + 30_000;
      let got: number | undefined;
      while (got === undefined && Date.now() < until) {
        got = receiver.received.find((r) => (r.verified?.data as { changes?: { announcement_message?: string } } | undefined)?.changes?.announcement_message === value)?.at;
        if (got === undefined) await sleep(5);
      }
      latencies.push((got ?? Number.POSITIVE_INFINITY) - start);
      await sleep(50);
    }
    const decisionToDelivery = stats(latencies);
    options.log(`webhooks: decision to delivery over ${latencies.length} decisions: p50 ${decisionToDelivery.p50Ms.toFixed(0)} ms, p95 ${decisionToDelivery.p95Ms.toFixed(0)} ms`);

    const restored = await fetch(`${server.baseUrl}/api/admin/products/bulk-status`, { method: "POST", headers, body: JSON.stringify({ ids, status: "active" }) });
    if (restored.status !== 200) throw new Error(`restoring answered ${restored.status}`);
    reading = false;
    await screens;
    return {
      eventsPerSecond: delivered / burstSeconds,
      burstEvents: delivered,
      burstSeconds,
      decisionToDelivery,
      screensMeanwhile: stats(screenTimes),
      unverified: receiver.received.filter((r) => r.verified === null).length,
    };
  } finally {
    reading = false;
    await screens.catch(() => undefined);
    reader.close();
    await fetch(`${server.baseUrl}/api/admin/integrations/webhooks/${endpoint.id}`, { method: "DELETE", headers }).catch(() => undefined);
    await receiver.close();
  }
}

/** Takes the benchmark's webhook rows out of a cached data set again (run after its server stopped). */
export async function removeBenchWebhooks(databaseUrl: string): Promise<void> {
  const database = openDatabase(parseDatabaseUrl(databaseUrl));
  try {
    const { db } = database;
    await db.deleteFrom("webhook_deliveries").execute();
    await db.deleteFrom("webhook_events").execute();
    await db.deleteFrom("webhook_endpoints").execute();
    await db.deleteFrom("jobs").where("kind", "=", "webhooks.deliver").execute();
  } finally {
    await database.close();
  }
}
