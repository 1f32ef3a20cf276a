import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ingestEventsResponseSchema, type EventResult } from "../../../contract/integrations-events.ts";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { databaseChecksum } from "../../testing/db-checksum.ts";
import type { StorefrontEvent } from "../../testing/storefront-events.ts";
import { history, storefrontStep } from "../../testing/storefront-history.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * A storefront's history (sign-ups, listings, edits, orders over several artists, partial and full
 * refunds, subscriptions, visits, errors, deletions), valid when sent in order, delivered shuffled,
 * duplicated and in random batches, each batch's unknown_* refusals sent again afterwards as a
 * sender would. Whatever the order: every rollup equals a recompute from the raw rows, and sending
 * the whole stream once more changes nothing. On a SQLite file the writer thread applies them, each
 * batch in one transaction (decision 0029).
 */
async function post(ctx: TestContext, key: string, events: StorefrontEvent[]): Promise<EventResult[]> {
  const res = await ctx.request("/api/events", { method: "POST", token: key, json: { events } });
  expect(res.status, await res.clone().text()).toBe(200);
  return ingestEventsResponseSchema.parse(await res.json()).results;
}

const RETRYABLE = new Set(["unknown_artist", "unknown_product", "unknown_order"]);

const setups = [...testDatabaseKinds.map((kind) => ({ name: kind, kind, file: false })), { name: "sqlite file", kind: "sqlite" as const, file: true }];

describe.each(setups)("storefront streams in any order ($name)", ({ kind, file }) => {
  it("keep every rollup equal to a recompute, and a re-sent stream changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(storefrontStep, { minLength: 5, maxLength: 45 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 120, maxLength: 120 }),
        fc.array(fc.nat(200), { maxLength: 15 }),
        fc.integer({ min: 1, max: 25 }),
        async (steps, order, duplicates, batch) => {
          const stream = history(steps);
          // Shuffled (each event its random key), with some events sent twice.
          const delivery = [...stream, ...duplicates.filter((d) => d < stream.length).map((d) => stream[d]!)]
            .map((e, i) => ({ e, k: order[i % order.length]! + i * 1e-9 }))
            .sort((x, y) => x.k - y.k)
            .map((x) => x.e);
          const dir = file ? mkdtempSync(join(tmpdir(), "hki-events-property-")) : null;
          const ctx = await createTestContext(kind, { now: "2026-11-22T12:00:00.000Z", ...(dir ? { sqlitePath: join(dir, "panel.sqlite") } : {}) });
          try {
            const { key } = await ctx.createApiKey();
            let pending: StorefrontEvent[] = [];
            for (let i = 0; i < delivery.length; i += batch) {
              const chunk = delivery.slice(i, i + batch);
              const results = await post(ctx, key, chunk);
              results.forEach((r, j) => {
                expect(r.error?.code === "invalid_input" || r.error?.code === "id_reused", JSON.stringify(r)).toBe(false);
                if (r.status === "rejected" && RETRYABLE.has(r.error!.code)) pending.push(chunk[j]!);
              });
            }
            // The sender sends the refused ones again after the missing ones arrived, until nothing moves.
            for (let round = 0; round < 6 && pending.length > 0; round++) {
              const results = await post(ctx, key, pending);
              const still = pending.filter((_, j) => results[j]!.status === "rejected");
              if (still.length === pending.length) break;
              pending = still;
            }
            expect(await compareRollups(ctx.database.db)).toEqual([]);
            const settled = await databaseChecksum(ctx.database.db, { exclude: ["rate_limits", "api_keys"] });
            for (let i = 0; i < stream.length; i += 100) {
              for (const r of await post(ctx, key, stream.slice(i, i + 100))) expect(["duplicate", "stale", "rejected"]).toContain(r.status);
            }
            expect(await databaseChecksum(ctx.database.db, { exclude: ["rate_limits", "api_keys"] })).toEqual(settled);
          } finally {
            await ctx.close();
            if (dir) rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: file ? 12 : kind === "sqlite" ? 40 : 12 },
    );
  }, 600_000);
});
