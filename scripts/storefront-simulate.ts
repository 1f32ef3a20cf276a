/**
 * A storefront simulator (docs/integration.md): sends a realistic stream of storefront events to a
 * running panel with an API key, as a storefront would, and prints what it sent and how each batch
 * was answered. Sign-ups, listings and edits, orders across several artists, partial refunds,
 * subscription payments, store visits, errors, an occasional deletion; some events sent twice in a
 * batch, some batches sent again as if their answer was lost (they come back `duplicate`), refused
 * ones (unknown_*) sent again later, failed requests retried with the same event ids.
 *
 *   npm run storefront:simulate -- --url http://localhost:3000 --key hki_sk_… [--rate 20] [--duration 30]
 *
 * Options: --url (default http://localhost:3000), --key (or HKI_API_KEY), --rate events per second
 * (default 20), --duration seconds (default 30), --batch events per request (default rate / 2,
 * 1–500), --seed (a number: the same stream again). Exits 1 when any event was refused for bad data.
 *
 * With --listen PORT it is also the storefront's webhook receiver (docs/integration.md "Webhooks"):
 * add http://127.0.0.1:PORT/webhooks as an endpoint on the Integrations screen and give its secret
 * as --webhook-secret (or HKI_WEBHOOK_SECRET); every delivery is verified with the
 * `standardwebhooks` package and printed (a forged one is answered 400). Without --key it only
 * listens, until stopped.
 *
 * With --apply it sends instead one artist who applies to sell (docs/integration.md "Applications"):
 * `artist.created` with an application whose sample images are on the storefront's host
 * (--storefront-url, default http://localhost:5174: the panel's STOREFRONT_URL), prints the artist
 * and, with --listen, keeps printing the decisions until stopped.
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";

interface Options {
  url: string;
  /** Null: only listening for webhooks. */
  key: string | null;
  listen: number | null;
  webhookSecret: string | null;
  rate: number;
  duration: number;
  batch: number;
  seed: number;
  /** Send one artist's application instead of a stream. */
  apply: boolean;
  storefrontUrl: string;
}

interface Event {
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

interface Result {
  id: string;
  status: "applied" | "duplicate" | "stale" | "rejected";
  error?: { code: string; message: string; fields?: Record<string, string> };
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: "string", default: "http://localhost:3000" },
      key: { type: "string" },
      rate: { type: "string", default: "20" },
      duration: { type: "string", default: "30" },
      batch: { type: "string" },
      seed: { type: "string" },
      listen: { type: "string" },
      "webhook-secret": { type: "string" },
      apply: { type: "boolean", default: false },
      "storefront-url": { type: "string", default: "http://localhost:5174" },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      "npm run storefront:simulate -- --url URL --key KEY [--rate N (events/s)] [--duration S] [--batch N] [--seed N] [--listen PORT --webhook-secret whsec_…] [--apply [--storefront-url URL]]",
    );
    process.exit(0);
  }
  const key = values.key ?? process.env.HKI_API_KEY ?? null;
  const listen = values.listen === undefined ? null : Number(values.listen);
  if (listen !== null && !(Number.isInteger(listen) && listen >= 1 && listen <= 65535)) throw new Error("--listen must be a port number");
  const webhookSecret = values["webhook-secret"] ?? process.env.HKI_WEBHOOK_SECRET ?? null;
  if (listen !== null && !webhookSecret) throw new Error("--listen needs --webhook-secret (the endpoint's whsec_… secret from the Integrations screen), or HKI_WEBHOOK_SECRET");
  if (!key && listen === null) throw new Error("--key is required (an API key made on the Integrations screen), or HKI_API_KEY");
  const rate = Number(String(values.rate).replace(/\/s$/, ""));
  const duration = Number(values.duration);
  if (!(rate > 0 && rate <= 10_000)) throw new Error("--rate must be between 1 and 10000 events per second");
  if (!(duration > 0)) throw new Error("--duration must be a number of seconds");
  const batch = values.batch === undefined ? Math.max(1, Math.min(500, Math.round(rate / 2))) : Number(values.batch);
  if (!(Number.isInteger(batch) && batch >= 1 && batch <= 500)) throw new Error("--batch must be 1–500");
  return {
    url: values.url!.replace(/\/$/, ""),
    key,
    listen,
    webhookSecret,
    rate,
    duration,
    batch,
    seed: values.seed === undefined ? Date.now() % 1_000_000_007 : Number(values.seed),
    apply: values.apply ?? false,
    storefrontUrl: values["storefront-url"]!.replace(/\/$/, ""),
  };
}

/**
 * The storefront's webhook receiver: verifies each delivery with the `standardwebhooks` package over
 * the body as it came, prints it, and answers 204 (400 to one that does not verify). A repeated
 * `webhook-id` (a retry after an answer that was lost) is printed as such and answered 204 again.
 */
function listenForWebhooks(port: number, secret: string): Promise<() => Promise<void>> {
  const webhook = new Webhook(secret);
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        const event = webhook.verify(body, req.headers as Record<string, string>) as { id: string; type: string; createdAt: string; data: unknown };
        const again = seen.has(event.id);
        seen.add(event.id);
        console.log(`webhook ${event.type} ${event.id}${again ? " (again: already processed)" : ""} decided ${event.createdAt}: ${JSON.stringify(event.data)}`);
        res.statusCode = 204;
      } catch (err) {
        console.log(`webhook refused (${err instanceof Error ? err.message : String(err)}): ${body.slice(0, 200)}`);
        res.statusCode = 400;
      }
      res.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(port, () => {
      console.log(`Receiving webhooks at http://127.0.0.1:${port}/webhooks (any path), verified with the endpoint's secret`);
      resolve(() => new Promise<void>((done) => server.close(() => done())));
    }),
  );
}

/** A small seeded generator (mulberry32), so --seed repeats a stream. */
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

const FIRST = ["Ada", "Bo", "Cleo", "Dara", "Emil", "Frida", "Gus", "Hana", "Ivo", "June", "Kai", "Lena", "Milo", "Nia", "Otto", "Pia"];
const LAST = ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Novak", "Reyes", "Haddad", "Berg", "Costa", "Walsh"];
const STUDIO = ["Prints", "Ceramics", "Studio", "Atelier", "Press", "Workshop", "Glassworks", "Textiles"];
const WORKS = ["Heron at dawn", "Blue hour", "Salt marsh", "Paper moon", "North light", "Still life with pears", "Harbour", "Fern study", "Night garden", "Tidal"];
const ERRORS = ["Checkout payment timed out", "Image upload failed", "Search index unavailable", "Email provider rejected a message"];

/** The storefront as the simulator keeps it: what exists, so every event it makes is valid when made. */
class Storefront {
  private readonly rand;
  private readonly run: string;
  private seq = 0;
  private listed = 0;
  readonly artists: Array<{ id: string; name: string; owner: string; email: string; slug: string; subscription: string | null }> = [];
  readonly products: Array<{ id: string; artistId: string; name: string; price: number }> = [];
  readonly orders: Array<{ id: string; lines: Array<{ lineId: string; productId: string; left: number }> }> = [];
  /** Products ever ordered: the simulated artists delete only what never sold. */
  private readonly ordered = new Set<string>();
  private readonly visits = new Map<string, number>();

  constructor(seed: number) {
    this.rand = random(seed);
    this.run = seed.toString(36);
  }

  private event(type: string, data: Record<string, unknown>): Event {
    return { id: `sim-${this.run}-${++this.seq}`, type, occurredAt: new Date().toISOString(), data };
  }

  signUp(): Event {
    const n = this.artists.length + 1;
    const owner = `${this.rand.pick(FIRST)} ${this.rand.pick(LAST)}`;
    const name = `${owner.split(" ")[1]} ${this.rand.pick(STUDIO)}`;
    const id = `sim-${this.run}-artist-${n}`;
    const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${this.run}-${n}`;
    const email = `${owner.toLowerCase().replace(/[^a-z]+/g, ".")}.${this.run}${n}@example.com`;
    this.artists.push({ id, name, owner, email, slug, subscription: null });
    return this.event("artist.created", {
      artistId: id,
      name,
      ownerName: owner,
      email,
      slug,
      customization: { theme: "minimal", primaryColor: "#1f2937", about: `${name}: small editions, made by hand.` },
    });
  }

  editArtist(): Event | null {
    const a = this.artists.length > 0 ? this.rand.pick(this.artists) : null;
    if (!a) return null;
    return this.event("artist.updated", { artistId: a.id, name: a.name, ownerName: a.owner, email: a.email, slug: a.slug, customization: { about: `${a.name}: new work every month.` } });
  }

  list(): Event | null {
    const a = this.artists.length > 0 ? this.rand.pick(this.artists) : null;
    if (!a) return null;
    const id = `sim-${this.run}-product-${++this.listed}`;
    const price = (5 + this.rand.int(40)) * 500;
    const name = `${this.rand.pick(WORKS)} No. ${this.listed}`;
    this.products.push({ id, artistId: a.id, name, price });
    return this.event("product.created", { productId: id, artistId: a.id, name, priceCents: price, inventory: 1 + this.rand.int(20), status: "active" });
  }

  editProduct(): Event | null {
    const p = this.products.length > 0 ? this.rand.pick(this.products) : null;
    if (!p) return null;
    p.price += 500;
    return this.event("product.updated", {
      productId: p.id,
      artistId: p.artistId,
      name: p.name,
      priceCents: p.price,
      inventory: this.rand.int(10),
      status: this.rand.next() < 0.9 ? "active" : "draft",
    });
  }

  order(): Event | null {
    if (this.products.length === 0) return null;
    const id = `sim-${this.run}-order-${this.orders.length + 1}`;
    const count = 1 + this.rand.int(3);
    const chosen = new Set<(typeof this.products)[number]>();
    for (let i = 0; i < count; i++) chosen.add(this.rand.pick(this.products));
    const lines = [...chosen].map((p, i) => ({ lineId: `line-${i + 1}`, productId: p.id, artistId: p.artistId, quantity: 1 + this.rand.int(2), unitPriceCents: p.price }));
    for (const l of lines) this.ordered.add(l.productId);
    this.orders.push({ id, lines: lines.map((l) => ({ lineId: l.lineId, productId: l.productId, left: l.quantity * l.unitPriceCents })) });
    return this.event("order.paid", { orderId: id, customerEmail: `buyer${this.rand.int(500)}@example.com`, paidAt: new Date().toISOString(), paymentIntentId: `pi_sim_${this.seq}`, lines });
  }

  refund(): Event | null {
    const o = this.orders.length > 0 ? this.rand.pick(this.orders) : null;
    const line = o?.lines.find((l) => l.left > 0);
    if (!o || !line) return null;
    const amount = Math.max(1, Math.round(line.left * (this.rand.next() < 0.5 ? 1 : 0.3)));
    line.left -= amount;
    return this.event("order.refunded", {
      orderId: o.id,
      refundId: `sim-${this.run}-refund-${this.seq}`,
      amountCents: amount,
      lines: [{ lineId: line.lineId, amountCents: amount }],
      reason: "requested by the buyer",
    });
  }

  subscription(): Event | null {
    const a = this.artists.length > 0 ? this.rand.pick(this.artists) : null;
    if (!a) return null;
    a.subscription ??= `sim-${this.run}-sub-${a.id.split("-").at(-1)}`;
    const start = new Date();
    const end = new Date(start.getTime() + 30 * 86_400_000);
    return this.event("subscription.paid", { subscriptionId: a.subscription, artistId: a.id, periodStart: start.toISOString(), periodEnd: end.toISOString(), amountCents: 2999 });
  }

  visit(): Event | null {
    const a = this.artists.length > 0 ? this.rand.pick(this.artists) : null;
    if (!a) return null;
    const count = (this.visits.get(a.id) ?? 0) + 5 + this.rand.int(40);
    this.visits.set(a.id, count);
    return this.event("store.visits", { artistId: a.id, day: new Date().toISOString().slice(0, 10), visits: count });
  }

  error(): Event {
    return this.event("error.reported", { level: this.rand.next() < 0.7 ? "warning" : "error", message: this.rand.pick(ERRORS), endpoint: "/checkout", method: "POST", statusCode: 502 });
  }

  deleteProduct(): Event | null {
    const unsold = this.products.filter((p) => !this.ordered.has(p.id));
    if (this.products.length < 6 || unsold.length === 0) return null;
    const p = this.rand.pick(unsold);
    this.products.splice(this.products.indexOf(p), 1);
    return this.event("product.deleted", { productId: p.id });
  }

  /** The next event, weighted as a quiet marketplace's day: mostly orders and visits, sometimes a sign-up. */
  next(): Event {
    if (this.artists.length < 3) return this.signUp();
    if (this.products.length < 4) return this.list()!;
    const roll = this.rand.next();
    const made =
      roll < 0.05
        ? this.signUp()
        : roll < 0.15
          ? this.list()
          : roll < 0.2
            ? this.editProduct()
            : roll < 0.23
              ? this.editArtist()
              : roll < 0.55
                ? this.order()
                : roll < 0.62
                  ? this.refund()
                  : roll < 0.68
                    ? this.subscription()
                    : roll < 0.95
                      ? this.visit()
                      : roll < 0.98
                        ? this.error()
                        : this.deleteProduct();
    return made ?? this.order() ?? this.signUp();
  }

  /** Sometimes an event twice in one batch, as a storefront's retry queue may. */
  maybeDuplicate(batch: Event[]): Event[] {
    return this.rand.next() < 0.1 && batch.length > 0 ? [...batch, this.rand.pick(batch)] : batch;
  }

  chance(p: number): boolean {
    return this.rand.next() < p;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one batch until it is answered: network failures, 429 and 5xx are retried with the same event ids. */
async function send(options: Options, events: Event[]): Promise<Result[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${options.url}/api/events`, {
        method: "POST",
        headers: { authorization: `Bearer ${options.key}`, "content-type": "application/json" },
        body: JSON.stringify({ events }),
        signal: AbortSignal.timeout(15_000),
      });
      if (res.ok) return ((await res.json()) as { results: Result[] }).results;
      const body = await res.text();
      if (res.status === 401 || res.status === 403 || res.status === 400 || res.status === 413) throw new Fatal(`${res.status} ${body.slice(0, 300)}`);
      const wait = Number(res.headers.get("retry-after") ?? 0) * 1000 || Math.min(10_000, 250 * 2 ** attempt);
      console.log(`  ${res.status}: retrying the same ${events.length} events in ${wait} ms`);
      await sleep(wait);
    } catch (err) {
      if (err instanceof Fatal) throw err;
      const wait = Math.min(10_000, 250 * 2 ** attempt);
      console.log(`  no answer (${err instanceof Error ? err.message : String(err)}): retrying the same ${events.length} events in ${wait} ms`);
      await sleep(wait);
    }
  }
}

class Fatal extends Error {}

function countBy<T>(items: T[], key: (item: T) => string): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k}×${n}`).join(", ");
}

/** One artist applying to sell: artist.created with its application (portfolio, statement, images on the storefront's host). */
async function sendApplication(options: Options): Promise<void> {
  const n = `${options.seed}`;
  const event: Event = {
    id: `sim-apply-${n}`,
    type: "artist.created",
    occurredAt: new Date().toISOString(),
    data: {
      artistId: `sim-applicant-${n}`,
      name: `Applicant Studio ${n}`,
      ownerName: "Ines Applicant",
      email: `applicant.${n}@example.com`,
      slug: `applicant-studio-${n}`,
      application: {
        portfolioUrl: `https://portfolio.example.com/applicant-${n}`,
        statement: "Woodcut prints of northern coasts, each cut and printed by hand in editions of twenty.",
        sampleImageUrls: [1, 2, 3].map((i) => `${options.storefrontUrl}/uploads/applicant-${n}-${i}.jpg`),
        referral: "The Helsinki print fair",
      },
    },
  };
  const [result] = await send(options, [event]);
  console.log(`Applied: the artist "Applicant Studio ${n}" (sim-applicant-${n}, /applicant-studio-${n}) -> ${result?.status}${result?.error ? ` ${result.error.code} ${result.error.message}` : ""}`);
  if (result?.status === "rejected") process.exitCode = 1;
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const stopListening = options.listen !== null ? await listenForWebhooks(options.listen, options.webhookSecret!) : null;
  // Listening only: until stopped.
  if (options.key === null) return;
  if (options.apply) {
    await sendApplication(options);
    // Listening: the decision arrives when an operator takes it, until stopped.
    return;
  }
  const store = new Storefront(options.seed);
  const totals = { sent: 0, applied: 0, duplicate: 0, stale: 0, rejected: 0, badData: 0 };
  const refused: Event[] = [];
  let previous: Event[] | null = null;
  const started = Date.now();
  const interval = Math.max(100, (options.batch / options.rate) * 1000);
  console.log(`Simulating a storefront at ${options.url}: ${options.rate} events/s for ${options.duration} s, ${options.batch} per request (seed ${options.seed})`);
  while (Date.now() - started < options.duration * 1000) {
    const tick = Date.now();
    let batch: Event[];
    let note = "";
    if (previous && store.chance(0.08)) {
      // The answer to the last batch was "lost": send it again, unchanged.
      batch = previous;
      note = " (re-sent: its answer was lost)";
    } else {
      const fresh = Array.from({ length: options.batch }, () => store.next());
      // What was refused for want of something that has arrived since goes again.
      batch = store.maybeDuplicate([...refused.splice(0, Math.max(0, 500 - fresh.length - 1)), ...fresh]);
    }
    const results = await send(options, batch);
    previous = batch;
    totals.sent += batch.length;
    for (const [i, r] of results.entries()) {
      totals[r.status] += 1;
      if (r.status !== "rejected") continue;
      if (r.error?.code.startsWith("unknown_")) refused.push(batch[i]!);
      else {
        totals.badData += 1;
        console.log(`  rejected ${batch[i]!.type} ${r.id}: ${r.error?.code} ${r.error?.message}`);
      }
    }
    console.log(`sent ${batch.length}${note} [${countBy(batch, (e) => e.type)}] -> ${countBy(results, (r) => (r.error ? `${r.status}:${r.error.code}` : r.status))}`);
    await sleep(Math.max(0, interval - (Date.now() - tick)));
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `Done in ${seconds.toFixed(1)} s: ${totals.sent} events (${(totals.sent / seconds).toFixed(1)}/s), applied ${totals.applied}, duplicate ${totals.duplicate}, stale ${totals.stale}, rejected ${totals.rejected}; ${store.artists.length} artists, ${store.products.length} products, ${store.orders.length} orders made`,
  );
  // One of each, for a person (or the e2e) to look for on the screens: the latest order still paid
  // (first on its artist's Sales tab), the product of its first line (never deleted: it sold) and
  // that product's artist.
  const order = store.orders.findLast((o) => o.lines[0]!.left > 0);
  const product = store.products.find((p) => p.id === order?.lines[0]!.productId);
  const artist = store.artists.find((a) => a.id === product?.artistId);
  if (order && product && artist) console.log(`For example: the order ${order.id} of "${product.name}" (${product.id}) by the artist "${artist.name}" (${artist.id}, /${artist.slug})`);
  if (totals.badData > 0) process.exitCode = 1;
  if (stopListening) {
    // The decisions just taken may still be on their way.
    await sleep(3_000);
    await stopListening();
  }
}

main().catch((err: unknown) => {
  console.error(`storefront:simulate: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
