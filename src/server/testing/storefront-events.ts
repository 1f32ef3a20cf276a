import { expect } from "vitest";
import { createdApiKeySchema } from "../../contract/integrations.ts";
import { ingestEventsResponseSchema, type EventResult } from "../../contract/integrations-events.ts";
import type { TestContext } from "./test-app.ts";

/**
 * Shared by the integrations tests (never in the bundle: only *.test.ts files import it): an API
 * key made through the API, events sent with it, and the storefront's sample things.
 */
export interface StorefrontEvent {
  id: string;
  type: string;
  occurredAt: string;
  data: unknown;
}

export async function createKey(ctx: TestContext, adminToken: string, scopes: string[] = ["events:write"], name = "Storefront"): Promise<{ id: string; key: string }> {
  const res = await ctx.request("/api/admin/integrations/api-keys", { method: "POST", token: adminToken, json: { name, scopes } });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = createdApiKeySchema.parse(await res.json());
  return { id: body.apiKey.id, key: body.key };
}

export function postEvents(ctx: TestContext, key: string, events: unknown[]): Promise<Response> {
  return ctx.request("/api/events", { method: "POST", token: key, json: { events } });
}

/** Sends events and answers their results, expecting a 200. */
export async function send(ctx: TestContext, key: string, events: StorefrontEvent[]): Promise<EventResult[]> {
  const res = await postEvents(ctx, key, events);
  expect(res.status, await res.clone().text()).toBe(200);
  return ingestEventsResponseSchema.parse(await res.json()).results;
}

let sequence = 0;
/** An event with a fresh id at `occurredAt` (default: the test clock's now). */
export function event(type: string, data: unknown, occurredAt = "2026-11-22T12:00:00.000Z", id = `evt_${++sequence}_${Math.random().toString(36).slice(2, 8)}`): StorefrontEvent {
  return { id, type, occurredAt, data };
}

export const artist = (artistId: string, extra: Record<string, unknown> = {}) => ({
  artistId,
  name: `Studio ${artistId}`,
  ownerName: `Owner ${artistId}`,
  email: `${artistId}@example.com`,
  slug: `studio-${artistId}`.toLowerCase().replace(/[^a-z0-9-]/g, "-"),
  ...extra,
});

export const product = (productId: string, artistId: string, extra: Record<string, unknown> = {}) => ({
  productId,
  artistId,
  name: `Print ${productId}`,
  priceCents: 2500,
  inventory: 5,
  status: "active",
  ...extra,
});

export const order = (orderId: string, lines: Array<{ lineId: string; productId: string; artistId: string; quantity?: number; unitPriceCents?: number }>, paidAt = "2026-11-22T12:00:00.000Z") => ({
  orderId,
  customerEmail: "buyer@example.com",
  paidAt,
  lines: lines.map((l) => ({ quantity: 1, unitPriceCents: 2500, ...l })),
});
