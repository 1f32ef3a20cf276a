// A storefront service sending its events to the panel with a client generated from the panel's
// OpenAPI document (docs/integration.md, "A TypeScript sender"). Next to this file:
//   npm install openapi-fetch && npm install -D openapi-typescript typescript
//   npx openapi-typescript "$HKI_URL/api/openapi.json" -o hki-api.d.ts
//   HKI_URL=https://admin.example.com HKI_API_KEY=hki_sk_… npx tsx send-events.ts
import createClient from "openapi-fetch";
import type { components, paths } from "./hki-api";

/** One event, typed by its `type`: `data` is that type's (StorefrontEvent_order_paid, …). */
type StorefrontEvent = components["schemas"]["StorefrontEvent"];
type EventResult = paths["/api/events"]["post"]["responses"][200]["content"]["application/json"]["results"][number];

const panel = createClient<paths>({ baseUrl: process.env.HKI_URL });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one batch until it has an answer. Without one (a 5xx, a 429, a broken connection), the
 * same batch goes again with the same ids: an event applied before is answered `duplicate`.
 */
export async function sendEvents(apiKey: string, events: StorefrontEvent[]): Promise<EventResult[]> {
  for (let attempt = 0; ; attempt++) {
    const backoff = Math.min(60_000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
    try {
      const { data, error, response } = await panel.POST("/api/events", {
        headers: { authorization: `Bearer ${apiKey}` },
        body: { events },
        signal: AbortSignal.timeout(15_000),
      });
      if (data) return data.results;
      // 400, 401, 403, 413: sending the same again would be refused again.
      if (response.status !== 429 && response.status < 500) throw new Error(`refused (${response.status} ${error?.error.code}): ${error?.error.message}`);
      await wait(Number(response.headers.get("retry-after")) * 1000 || backoff);
    } catch (failure) {
      if (failure instanceof Error && failure.message.startsWith("refused")) throw failure;
      await wait(backoff);
    }
  }
}

// Each event as the storefront recorded it: sent again, it is the same body (the same id with
// another body would be refused as id_reused).
const at = "2026-11-22T12:00:00Z";
const results = await sendEvents(process.env.HKI_API_KEY ?? "", [
  {
    id: "evt_example_1",
    type: "artist.created",
    occurredAt: at,
    data: { artistId: "art_example", name: "Blue Heron Prints", ownerName: "Ada Lovelace", email: "ada@example.com", slug: "blue-heron-prints" },
  },
  {
    id: "evt_example_2",
    type: "product.created",
    occurredAt: at,
    data: { productId: "prd_example", artistId: "art_example", name: "Heron at dawn", priceCents: 4500, inventory: 10, status: "active" },
  },
  {
    id: "evt_example_3",
    type: "order.paid",
    occurredAt: at,
    data: {
      orderId: "ord_example",
      customerEmail: "buyer@example.com",
      paidAt: at,
      lines: [{ lineId: "ln_1", productId: "prd_example", artistId: "art_example", quantity: 2, unitPriceCents: 4500 }],
    },
  },
]);
for (const { id, status, error } of results) console.log(id, status, ...(error ? [`${error.code}: ${error.message}`] : []));

// A read the storefront makes without a key: the featured artist it shows on its home page.
const { data: featured } = await panel.GET("/api/public/featured-artist");
console.log("featured:", featured?.featured?.name ?? "none");
