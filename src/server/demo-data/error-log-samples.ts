import type { NewErrorLog } from "../platform/db/schema.ts";
import type { Random } from "./random.ts";

/** Realistic error-log entries for the demo seed and the generator. */
interface Template {
  level: NewErrorLog["level"];
  message: string;
  endpoint: string;
  method: string;
  status: number | null;
  error?: string;
  context: (rand: Random) => Record<string, unknown>;
}

const TEMPLATES: readonly Template[] = [
  {
    level: "error",
    message: "Database query timeout while loading vendor dashboard",
    endpoint: "/api/vendors/dashboard",
    method: "GET",
    status: 500,
    error: "Error: D1_ERROR: query timed out after 30000ms",
    context: (r) => ({ query: "vendor_stats", durationMs: r.int(30_000, 31_000) }),
  },
  {
    level: "error",
    message: "Stripe webhook signature verification failed",
    endpoint: "/api/webhooks/stripe",
    method: "POST",
    status: 400,
    error: "StripeSignatureVerificationError: No signatures found matching the expected signature for payload",
    context: (r) => ({ eventType: r.pick(["checkout.session.completed", "invoice.paid", "charge.refunded"]) }),
  },
  {
    level: "error",
    message: "Cannot read properties of undefined (reading 'price')",
    endpoint: "/api/checkout/session",
    method: "POST",
    status: 500,
    error: "TypeError: Cannot read properties of undefined (reading 'price')",
    context: (r) => ({ cartItems: r.int(1, 6), currency: "usd" }),
  },
  {
    level: "error",
    message: "Image upload failed: object storage returned 503",
    endpoint: "/api/products/images",
    method: "POST",
    status: 502,
    error: "Error: R2 PUT failed with status 503 Service Unavailable",
    context: (r) => ({ sizeBytes: r.int(200_000, 9_000_000), contentType: r.pick(["image/jpeg", "image/png", "image/webp"]) }),
  },
  {
    level: "warning",
    message: "Slow request: product search took longer than 2s",
    endpoint: "/api/products/search",
    method: "GET",
    status: 200,
    context: (r) => ({ durationMs: r.int(2_000, 6_500), term: r.pick(["ceramic mug", "linocut", "earrings", "tote"]) }),
  },
  {
    level: "warning",
    message: "Rate limit reached for invite code redemption",
    endpoint: "/api/invite-codes/redeem",
    method: "POST",
    status: 429,
    context: (r) => ({ attempts: r.int(11, 40), windowMinutes: 15 }),
  },
  {
    level: "warning",
    message: "Product inventory went negative; clamped to zero",
    endpoint: "/api/orders",
    method: "POST",
    status: 200,
    context: (r) => ({ inventoryBefore: 0, requested: r.int(1, 3) }),
  },
  {
    level: "warning",
    message: "Vendor custom HTML contained blocked elements and was sanitised",
    endpoint: "/api/vendors/customization",
    method: "PUT",
    status: 200,
    context: (r) => ({ removed: r.pick([["script"], ["iframe"], ["script", "onerror"]]) }),
  },
  {
    level: "info",
    message: "Scheduled payout batch completed",
    endpoint: "/api/admin/financial/payouts",
    method: "POST",
    status: 200,
    context: (r) => ({ vendorsPaid: r.int(5, 60), totalCents: r.int(50_000, 2_000_000) }),
  },
  {
    level: "info",
    message: "Cache warmed for storefront home page",
    endpoint: "/api/storefront/home",
    method: "GET",
    status: 200,
    context: (r) => ({ entries: r.int(20, 200) }),
  },
  {
    level: "info",
    message: "Vendor subscription renewed",
    endpoint: "/api/webhooks/stripe",
    method: "POST",
    status: 200,
    context: () => ({ plan: "artist-monthly" }),
  },
];

const USER_AGENTS = [
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
] as const;

function stackFor(error: string, endpoint: string, rand: Random): string {
  const file = endpoint.split("/").filter(Boolean).slice(1).join("-") || "index";
  return [
    error,
    `    at handler (src/routes/${file}.ts:${rand.int(12, 240)}:${rand.int(5, 40)})`,
    `    at dispatch (node_modules/hono/dist/compose.js:${rand.int(20, 60)}:23)`,
    `    at async cors (node_modules/hono/dist/middleware/cors/index.js:${rand.int(40, 90)}:5)`,
  ].join("\n");
}

/**
 * One error-log row created at `createdAt` (archive state left to the caller). `userEmails`
 * supplies the signed-in users a request may have come from; a third are anonymous.
 */
export function sampleErrorLog(rand: Random, id: string, createdAt: string, userEmails: readonly string[]): NewErrorLog {
  const t = rand.weighted(TEMPLATES.map((tpl) => [tpl, tpl.level === "error" ? 4 : tpl.level === "warning" ? 3.5 : 3] as const));
  return {
    id,
    level: t.level,
    message: t.message,
    endpoint: t.endpoint,
    method: t.method,
    status_code: t.status,
    user_email: userEmails.length > 0 && rand.chance(0.65) ? rand.pick(userEmails) : null,
    ip_address: `${rand.int(11, 223)}.${rand.int(0, 255)}.${rand.int(0, 255)}.${rand.int(1, 254)}`,
    user_agent: rand.pick(USER_AGENTS),
    stack_trace: t.error ? stackFor(t.error, t.endpoint, rand) : null,
    context: JSON.stringify({ requestId: rand.id(Date.parse(createdAt)), ...t.context(rand) }),
    fingerprint: `${t.method} ${t.endpoint} ${t.message}`,
    created_at: createdAt,
    archived_at: null,
    archived: 0,
  };
}

/**
 * Archive state typical of a monitored system: old entries mostly archived (many long enough
 * ago for the 30-day cleanup), recent ones mostly still active. Never archived in the future.
 */
export function sampleArchive(rand: Random, createdMs: number, nowMs: number): string | null {
  const ageDays = (nowMs - createdMs) / 86_400_000;
  const p = ageDays > 35 ? 0.7 : ageDays > 7 ? 0.35 : 0.1;
  if (!rand.chance(p)) return null;
  const archivedMs = Math.min(nowMs, createdMs + rand.int(1, 72) * 3_600_000);
  return new Date(archivedMs).toISOString();
}
