import http from "node:http";
import type { EventResult } from "../../src/contract/integrations-events.ts";
import { parseDatabaseUrl } from "../../src/server/platform/config/config.ts";
import { openDatabase } from "../../src/server/platform/db/connect.ts";
import { serverCpuMicros } from "./cpu.ts";
import { type Client, createClient, percentile } from "./latency.ts";

/** What the ingestion part of the benchmark measured: the storefront's door, `POST /api/events` (docs/integration.md). */
export interface IngestionFigures {
  /** Events answered `applied` per second, over the window (first request to last answer). Target: ≥ 2,000 on SQLite, ≥ 1,000 on PostgreSQL with 2 replicas. */
  eventsPerSecond: number;
  /** Events per request, and senders posting at once (each waits for its answer before the next batch). */
  batchSize: number;
  senders: number;
  windowSeconds: number;
  /** Requests answered 2xx, and the events in them by status (rejected must be 0: every event the bench makes is valid when made). */
  batches: number;
  events: { sent: number; applied: number; duplicate: number; stale: number; rejected: number };
  /** Event counts by type in the answered batches (the mix). */
  mix: Record<string, number>;
  /** The first few rejections' code and message, to say what went wrong when `rejected` is not 0. */
  rejections: string[];
  /** Answers other than 2xx (by status; "failed" when the connection broke); each batch was sent again, unchanged. */
  non2xx: Record<string, number>;
  /**
   * The server's CPU time (every thread, every worker) over the window per event applied, µs; null
   * without /proc. 1,000,000 ÷ this is what one core would apply per second with nothing else on it.
   */
  serverCpuUsPerEvent: number | null;
  /** From a batch's request to its answer. */
  batchMs: { n: number; p50Ms: number; p95Ms: number; maxMs: number };
  /** The screens read meanwhile (dashboard stats, vendor list, an artist's sales tab, the orders list where the server has one), one after another, in turn. Target: p95 ≤ 10 ms. */
  screensMeanwhile: { n: number; p50Ms: number; p95Ms: number; maxMs: number };
  screenPaths: string[];
  /**
   * What the run left in the data set: the new artists (and their products, orders, refunds,
   * subscriptions, visits) are deleted again through the door (`artist.deleted`), but the orders
   * paid to the data set's own artists stay, in every figure: the panel has no way to unmake a paid
   * order. `orderRows`/`grossCents`: those orders' rows (one per line) and their gross.
   */
  datasetGrowth: { orderRows: number; grossCents: number; artists: number; newArtistsMadeAndDeleted: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? Number.NaN };
};

/** The storefront ids given to the data set's own artists and products for the run (cleared by removeBenchIngestion). */
const EXISTING_PREFIX = "bench-existing-";
/** Every event id, and every artist, product, order and subscription the run makes, starts with this. */
const RUN_PREFIX = "bench-";
const BENCH_KEY_NAME = "Benchmark sender";

/** How many of the data set's artists receive orders, and how many of each one's listed products. */
const EXISTING_ARTISTS = 500;
const PRODUCTS_PER_ARTIST = 4;

interface StorefrontEvent {
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

interface ExistingProduct {
  productId: string;
  artistId: string;
  /** The panel's id of the artist (for its orders' screen). */
  vendorId: string;
  priceCents: number;
}

/** mulberry32: a seeded stream, so a sender's mix is the same on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

/**
 * One sender's storefront, as scripts/storefront-simulate.ts keeps one: what exists, so every event
 * is valid when made. Mostly orders of the data set's own artists' products (1–3 lines, now and
 * then across two artists); beside them the sender's own new artists sign up, list and edit
 * products, sell, refund part of an order, pay a subscription and report visits. Only the new
 * artists are edited, so everything but the orders paid to the data set's artists can be deleted again.
 */
class SenderStorefront {
  private readonly rand;
  private seq = 0;
  readonly newArtists: Array<{ id: string; subscription: string | null; visits: number }> = [];
  private readonly newProducts: Array<{ id: string; artistId: string; name: string; price: number }> = [];
  private readonly newOrders: Array<{ id: string; lines: Array<{ lineId: string; left: number }> }> = [];
  private existingOrders = 0;
  private readonly existingByArtist = new Map<string, ExistingProduct[]>();

  constructor(
    private readonly prefix: string,
    seed: number,
    private readonly existing: readonly ExistingProduct[],
  ) {
    this.rand = random(seed);
    for (const p of existing) this.existingByArtist.set(p.artistId, [...(this.existingByArtist.get(p.artistId) ?? []), p]);
  }

  private event(type: string, data: Record<string, unknown>): StorefrontEvent {
    return { id: `${this.prefix}evt-${++this.seq}`, type, occurredAt: new Date().toISOString(), data };
  }

  private signUp(): StorefrontEvent {
    const n = this.newArtists.length + 1;
    const id = `${this.prefix}artist-${n}`;
    this.newArtists.push({ id, subscription: null, visits: 0 });
    return this.event("artist.created", {
      artistId: id,
      name: `Bench Studio ${this.prefix}${n}`,
      ownerName: `Bench Owner ${n}`,
      email: `${id}@example.com`,
      slug: id,
      customization: { theme: "minimal", primaryColor: "#1f2937", about: "Small editions, made by hand." },
    });
  }

  private list(): StorefrontEvent | null {
    if (this.newArtists.length === 0) return null;
    const artist = this.rand.pick(this.newArtists);
    const id = `${this.prefix}product-${this.newProducts.length + 1}`;
    const price = (5 + this.rand.int(40)) * 500;
    const name = `Bench print No. ${this.newProducts.length + 1}`;
    this.newProducts.push({ id, artistId: artist.id, name, price });
    return this.event("product.created", { productId: id, artistId: artist.id, name, priceCents: price, inventory: 1 + this.rand.int(20), status: "active" });
  }

  private editProduct(): StorefrontEvent | null {
    if (this.newProducts.length === 0) return null;
    const p = this.rand.pick(this.newProducts);
    p.price += 500;
    return this.event("product.updated", { productId: p.id, artistId: p.artistId, name: p.name, priceCents: p.price, inventory: this.rand.int(10), status: "active" });
  }

  private subscription(): StorefrontEvent | null {
    if (this.newArtists.length === 0) return null;
    const a = this.rand.pick(this.newArtists);
    a.subscription ??= `${a.id}-sub`;
    const start = new Date();
    const end = new Date(start.getTime() + 30 * 86_400_000);
    return this.event("subscription.paid", { subscriptionId: a.subscription, artistId: a.id, periodStart: start.toISOString(), periodEnd: end.toISOString(), amountCents: 2999 });
  }

  private visit(): StorefrontEvent | null {
    if (this.newArtists.length === 0) return null;
    const a = this.rand.pick(this.newArtists);
    a.visits += 5 + this.rand.int(40);
    return this.event("store.visits", { artistId: a.id, day: new Date().toISOString().slice(0, 10), visits: a.visits });
  }

  private order(lines: Array<{ productId: string; artistId: string; priceCents: number }>, own: boolean): StorefrontEvent {
    const id = own ? `${this.prefix}order-new-${this.newOrders.length + 1}` : `${this.prefix}order-${++this.existingOrders}`;
    const sent = lines.map((l, i) => ({ lineId: `line-${i + 1}`, productId: l.productId, artistId: l.artistId, quantity: 1 + this.rand.int(2), unitPriceCents: l.priceCents }));
    if (own) this.newOrders.push({ id, lines: sent.map((l) => ({ lineId: l.lineId, left: l.quantity * l.unitPriceCents })) });
    return this.event("order.paid", { orderId: id, customerEmail: `buyer${this.rand.int(5000)}@example.com`, paidAt: new Date().toISOString(), paymentIntentId: `pi_bench_${this.seq}`, lines: sent });
  }

  /** An order of the data set's products: usually one artist's, sometimes two artists' in one basket. */
  private existingOrder(): StorefrontEvent {
    const first = this.rand.pick(this.existing);
    const lines = new Map<string, ExistingProduct>([[first.productId, first]]);
    const sameArtist = this.existingByArtist.get(first.artistId)!;
    const more = this.rand.int(3);
    for (let i = 0; i < more; i++) {
      const p = this.rand.next() < 0.8 ? this.rand.pick(sameArtist) : this.rand.pick(this.existing);
      lines.set(p.productId, p);
    }
    return this.order([...lines.values()], false);
  }

  private newOrder(): StorefrontEvent | null {
    if (this.newProducts.length === 0) return null;
    const p = this.rand.pick(this.newProducts);
    return this.order([{ productId: p.id, artistId: p.artistId, priceCents: p.price }], true);
  }

  private refund(): StorefrontEvent | null {
    const o = this.newOrders.length > 0 ? this.rand.pick(this.newOrders) : null;
    const line = o?.lines.find((l) => l.left > 0);
    if (!o || !line) return null;
    const amount = Math.max(1, Math.round(line.left * 0.3));
    line.left -= amount;
    return this.event("order.refunded", {
      orderId: o.id,
      refundId: `${this.prefix}refund-${this.seq}`,
      amountCents: amount,
      lines: [{ lineId: line.lineId, amountCents: amount }],
      reason: "requested by the buyer",
    });
  }

  /** The next event: 78 in 100 orders of the data set's artists, the rest the new artists' life. */
  next(): StorefrontEvent {
    if (this.newArtists.length === 0) return this.signUp();
    if (this.newProducts.length === 0) return this.list()!;
    const roll = this.rand.next();
    const made =
      roll < 0.02
        ? this.signUp()
        : roll < 0.08
          ? this.list()
          : roll < 0.1
            ? this.editProduct()
            : roll < 0.11
              ? this.subscription()
              : roll < 0.15
                ? this.visit()
                : roll < 0.17
                  ? this.refund()
                  : roll < 0.22
                    ? this.newOrder()
                    : this.existingOrder();
    return made ?? this.existingOrder();
  }

  /** The deletions of every artist this sender made, for after the window. */
  deletions(): StorefrontEvent[] {
    return this.newArtists.map((a) => this.event("artist.deleted", { artistId: a.id }));
  }
}

/** A keep-alive POST of JSON on one socket (node:http: lighter than fetch, so the generator takes less of the shared cores). */
function createPoster(baseUrl: string, key: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(baseUrl);
  const post = (path: string, body: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request(
        { agent, hostname, port, path, method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        },
      );
      req.setTimeout(60_000, () => req.destroy(new Error("no answer within 60 s")));
      req.on("error", reject);
      req.end(body);
    });
  return { post, close: () => agent.destroy() };
}

/**
 * The storefront's door through the real server: an API key with `events:write` made through the
 * admin API, some of the data set's artists and their listed products given storefront ids (as a
 * storefront that already knew them would have), then `senders` senders each posting batches of
 * `batchSize` fresh events back to back for `seconds`, while another client reads the screens one
 * after another. A batch answered other than 2xx is sent again unchanged, as docs/integration.md
 * asks of a sender. Afterwards the new artists are deleted through the door and the key revoked;
 * `removeBenchIngestion` takes the rest out of the cached data set (the orders paid to the data
 * set's own artists stay: `datasetGrowth`).
 */
export async function benchIngestion(
  server: { baseUrl: string; token: string; databaseUrl: string; pid?: number },
  options: {
    seconds: number;
    senders: number;
    batchSize: number;
    log: (line: string) => void;
    /** False: no screens read meanwhile (to tell the events' own cost from the reads'). */ screens?: boolean;
  },
): Promise<IngestionFigures> {
  const headers = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };
  const run = Date.now().toString(36);
  const made = await fetch(`${server.baseUrl}/api/admin/integrations/api-keys`, { method: "POST", headers, body: JSON.stringify({ name: `${BENCH_KEY_NAME} ${run}`, scopes: ["events:write"] }) });
  if (made.status !== 201) throw new Error(`making the API key answered ${made.status}: ${await made.text()}`);
  const { apiKey, key } = (await made.json()) as { apiKey: { id: string }; key: string };

  const database = openDatabase(parseDatabaseUrl(server.databaseUrl));
  const existing = await mapExistingProducts(database.db);
  const mappedArtists = new Set(existing.map((p) => p.artistId)).size;
  options.log(
    `ingestion: ${existing.length} listed products of ${mappedArtists} of the data set's artists given storefront ids; ${options.senders} senders x ${options.batchSize} events for ${options.seconds} s`,
  );
  // An artist's orders: the vendor sales tab of the first artist that receives orders.
  const salesArtist = existing[0]?.vendorId ?? null;

  const reader: Client = createClient(server.baseUrl, server.token);
  // The orders list (GET /api/admin/orders) where the server has one; the artist's sales tab in any case.
  const ordersList = "/api/admin/orders?limit=20";
  const hasOrdersList = (await reader.get(ordersList)).status === 200;
  const screenPaths = [
    "/api/admin/dashboard/stats",
    "/api/admin/vendors?page=1&limit=20",
    ...(salesArtist ? [`/api/admin/vendors/${encodeURIComponent(salesArtist)}/sales?page=1&limit=20`] : []),
    ...(hasOrdersList ? [ordersList] : []),
  ];
  const screenTimes: number[] = [];
  let reading = options.screens !== false;
  const screens = (async () => {
    const paths = screenPaths;
    for (let i = 0; reading; i++) {
      const start = process.hrtime.bigint();
      const res = await reader.get(paths[i % paths.length]!);
      if (res.status !== 200) throw new Error(`a screen answered ${res.status} meanwhile: ${res.body.toString("utf8").slice(0, 300)}`);
      screenTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  })();

  const stores = Array.from({ length: options.senders }, (_, i) => new SenderStorefront(`${RUN_PREFIX}${run}-${i + 1}-`, 7919 * (i + 1), existing));
  const posters = stores.map(() => createPoster(server.baseUrl, key));
  const events = { sent: 0, applied: 0, duplicate: 0, stale: 0, rejected: 0 };
  const mix: Record<string, number> = {};
  const rejections: string[] = [];
  const non2xx: Record<string, number> = {};
  const batchTimes: number[] = [];
  let batches = 0;
  let lastAnswer = 0;

  /** Sends one batch until it is answered 2xx (the same events again after a refusal), and counts its results. */
  const send = async (poster: ReturnType<typeof createPoster>, batch: StorefrontEvent[], deadline: number): Promise<{ results: EventResult[]; ms: number } | null> => {
    const body = JSON.stringify({ events: batch });
    for (;;) {
      const start = process.hrtime.bigint();
      let answer: Awaited<ReturnType<typeof poster.post>> | null = null;
      try {
        answer = await poster.post("/api/events", body);
      } catch {
        non2xx.failed = (non2xx.failed ?? 0) + 1;
      }
      if (answer && answer.status >= 200 && answer.status < 300) {
        // The answer time of the try that was answered (the refused tries before it not counted).
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        return { results: (JSON.parse(answer.body) as { results: EventResult[] }).results, ms };
      }
      if (answer) non2xx[String(answer.status)] = (non2xx[String(answer.status)] ?? 0) + 1;
      if (answer?.status === 400 || answer?.status === 401 || answer?.status === 403 || answer?.status === 413 || answer?.status === 415) {
        throw new Error(`POST /api/events answered ${answer.status}: ${answer.body.slice(0, 300)}`);
      }
      if (Date.now() > deadline) return null;
      const retryAfter = Number(answer?.headers["retry-after"] ?? 0) * 1000;
      await sleep(Math.min(Math.max(retryAfter, 250), Math.max(0, deadline - Date.now())));
    }
  };

  const cpuBefore = server.pid === undefined ? null : serverCpuMicros(server.pid);
  const started = performance.now();
  const until = Date.now() + options.seconds * 1000;
  try {
    await Promise.all(
      stores.map(async (store, i) => {
        const poster = posters[i]!;
        while (Date.now() < until) {
          const batch = Array.from({ length: options.batchSize }, () => store.next());
          // A batch refused past the window is given up: the window is what is measured.
          const answered = await send(poster, batch, until + 30_000);
          if (!answered) break;
          lastAnswer = performance.now();
          batchTimes.push(answered.ms);
          batches++;
          events.sent += batch.length;
          for (const e of batch) mix[e.type] = (mix[e.type] ?? 0) + 1;
          for (const r of answered.results) {
            events[r.status]++;
            if (r.status === "rejected" && rejections.length < 5) rejections.push(`${r.id}: ${r.error?.code} ${r.error?.message}`);
          }
        }
      }),
    );
    const cpuAfter = server.pid === undefined ? null : serverCpuMicros(server.pid);
    reading = false;
    await screens;
    const serverCpuUsPerEvent = cpuBefore === null || cpuAfter === null || events.applied === 0 ? null : (cpuAfter - cpuBefore) / events.applied;
    const windowSeconds = (lastAnswer - started) / 1000;
    // The window's refusals (the deletions afterwards are not measured).
    const windowNon2xx = { ...non2xx };
    options.log(
      `ingestion: ${events.applied} events applied in ${windowSeconds.toFixed(1)} s = ${(events.applied / windowSeconds).toFixed(0)}/s (server CPU ${serverCpuUsPerEvent?.toFixed(0) ?? "?"} µs per event); rejected ${events.rejected}, non-2xx ${JSON.stringify(non2xx)}; screens meanwhile p95 ${stats(screenTimes).p95Ms.toFixed(1)} ms`,
    );

    // The new artists go again through the door (each one's products, orders, refunds, subscription and visits with it).
    const deletions = stores.flatMap((s) => s.deletions());
    for (let i = 0; i < deletions.length; i += options.batchSize) {
      const answered = await send(posters[0]!, deletions.slice(i, i + options.batchSize), Date.now() + 120_000);
      const refused = answered?.results.filter((r) => r.status !== "applied") ?? [];
      if (!answered || refused.length > 0) throw new Error(`deleting the new artists: ${answered ? JSON.stringify(refused.slice(0, 3)) : "no 2xx answer"}`);
    }
    const growth = await database.db
      .selectFrom("orders")
      .select((eb) => [eb.fn.countAll<number>().as("rows"), eb.fn.sum<number>("gross_cents").as("gross"), eb.fn.count<number>("vendor_id").distinct().as("artists")])
      .where("external_order_id", "like", `${RUN_PREFIX}${run}-%`)
      .executeTakeFirstOrThrow();
    const datasetGrowth = { orderRows: Number(growth.rows), grossCents: Number(growth.gross ?? 0), artists: Number(growth.artists), newArtistsMadeAndDeleted: deletions.length };
    options.log(`ingestion: ${deletions.length} new artists deleted again; the data set keeps ${datasetGrowth.orderRows} order rows paid to ${datasetGrowth.artists} of its artists`);
    return {
      eventsPerSecond: events.applied / windowSeconds,
      batchSize: options.batchSize,
      senders: options.senders,
      windowSeconds,
      batches,
      events,
      mix,
      rejections,
      non2xx: windowNon2xx,
      serverCpuUsPerEvent,
      batchMs: stats(batchTimes),
      screensMeanwhile: stats(screenTimes),
      screenPaths,
      datasetGrowth,
    };
  } finally {
    reading = false;
    await screens.catch(() => undefined);
    reader.close();
    for (const p of posters) p.close();
    await database.close();
    await fetch(`${server.baseUrl}/api/admin/integrations/api-keys/${apiKey.id}`, { method: "DELETE", headers }).catch(() => undefined);
  }
}

/**
 * Gives up to EXISTING_ARTISTS of the data set's active artists (by id: an even spread over the
 * generated ids) and up to PRODUCTS_PER_ARTIST of each one's listed products storefront ids, as a
 * storefront that sent them earlier would have left them. Only rows without one are taken.
 */
async function mapExistingProducts(db: ReturnType<typeof openDatabase>["db"]): Promise<ExistingProduct[]> {
  const vendors = (
    await db.selectFrom("vendors").select("id").where("is_active", "=", 1).where("is_internal", "=", 0).where("external_id", "is", null).orderBy("id").limit(EXISTING_ARTISTS).execute()
  ).map((v) => v.id);
  const picked: Array<{ id: string; vendor_id: string; price_cents: number }> = [];
  for (let i = 0; i < vendors.length; i += 100) {
    const rows = await db
      .selectFrom("products")
      .select(["id", "vendor_id", "price_cents"])
      .where("vendor_id", "in", vendors.slice(i, i + 100))
      .where("status", "=", "listed")
      .where("external_id", "is", null)
      .execute();
    const perVendor = new Map<string, number>();
    for (const r of rows) {
      const n = perVendor.get(r.vendor_id) ?? 0;
      if (n >= PRODUCTS_PER_ARTIST) continue;
      perVendor.set(r.vendor_id, n + 1);
      picked.push(r);
    }
  }
  if (picked.length === 0) throw new Error("the data set has no listed products of active artists to order");
  const artistIds = [...new Set(picked.map((p) => p.vendor_id))];
  await db.transaction().execute(async (trx) => {
    for (const id of artistIds)
      await trx
        .updateTable("vendors")
        .set({ external_id: `${EXISTING_PREFIX}artist-${id}` })
        .where("id", "=", id)
        .execute();
    for (const p of picked)
      await trx
        .updateTable("products")
        .set({ external_id: `${EXISTING_PREFIX}product-${p.id}` })
        .where("id", "=", p.id)
        .execute();
  });
  return picked.map((p) => ({ productId: `${EXISTING_PREFIX}product-${p.id}`, artistId: `${EXISTING_PREFIX}artist-${p.vendor_id}`, vendorId: p.vendor_id, priceCents: Number(p.price_cents) }));
}

/**
 * Takes the benchmark's ingestion rows out of a cached data set again (run after its server
 * stopped): the storefront ids given to the data set's artists and products, the events' and
 * versions' records, the keys with their audit rows and rate counts. The orders paid to the data
 * set's own artists stay (IngestionFigures.datasetGrowth).
 */
export async function removeBenchIngestion(databaseUrl: string): Promise<void> {
  const database = openDatabase(parseDatabaseUrl(databaseUrl));
  try {
    const { db } = database;
    await db.updateTable("vendors").set({ external_id: null }).where("external_id", "like", `${EXISTING_PREFIX}%`).execute();
    await db.updateTable("products").set({ external_id: null }).where("external_id", "like", `${EXISTING_PREFIX}%`).execute();
    await db.deleteFrom("storefront_events").where("id", "like", `${RUN_PREFIX}%`).execute();
    await db.deleteFrom("storefront_versions").where("thing", "like", `%:${RUN_PREFIX}%`).execute();
    const keys = (await db.selectFrom("api_keys").select("id").where("name", "like", `${BENCH_KEY_NAME} %`).execute()).map((k) => k.id);
    if (keys.length > 0) {
      await db.deleteFrom("audit_log").where("target_type", "=", "api_key").where("target_id", "in", keys).execute();
      await db
        .deleteFrom("rate_limits")
        .where(
          "bucket",
          "in",
          keys.map((k) => `apikey:${k}`),
        )
        .execute();
      await db.deleteFrom("api_keys").where("id", "in", keys).execute();
    }
  } finally {
    await database.close();
  }
}
