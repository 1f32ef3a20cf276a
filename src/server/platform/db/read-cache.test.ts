import { describe, expect, it } from "vitest";
import { fixedClock } from "../clock.ts";
import { READ_CACHE_MAX_AGE_MS, READ_CACHE_MAX_ENTRIES, ReadCache } from "./read-cache.ts";

function setup() {
  const clock = fixedClock("2026-11-22T10:00:00.000Z");
  let writes = 0;
  const cache = new ReadCache(clock, () => String(writes));
  let computations = 0;
  const compute = async () => {
    computations += 1;
    return { computation: computations };
  };
  return { clock, cache, compute, computations: () => computations, write: () => (writes += 1) };
}

describe("ReadCache", () => {
  it("serves the same answer within the max age without computing again", async () => {
    const t = setup();
    expect(await t.cache.read("dashboard", t.compute)).toEqual({ computation: 1 });
    t.clock.advance(READ_CACHE_MAX_AGE_MS - 1);
    expect(await t.cache.read("dashboard", t.compute)).toEqual({ computation: 1 });
    expect(t.computations()).toBe(1);
  });

  it("computes again once the answer is as old as the max age", async () => {
    const t = setup();
    await t.cache.read("dashboard", t.compute);
    t.clock.advance(READ_CACHE_MAX_AGE_MS);
    expect(await t.cache.read("dashboard", t.compute)).toEqual({ computation: 2 });
  });

  it("drops an answer at once when this process writes", async () => {
    const t = setup();
    await t.cache.read("dashboard", t.compute);
    t.write();
    expect(await t.cache.read("dashboard", t.compute)).toEqual({ computation: 2 });
  });

  it("does not trust an answer from the future when the clock moves back", async () => {
    const t = setup();
    await t.cache.read("dashboard", t.compute);
    t.clock.advance(-1);
    expect(await t.cache.read("dashboard", t.compute)).toEqual({ computation: 2 });
  });

  it("keeps answers per key", async () => {
    const t = setup();
    await t.cache.read("analytics:7", t.compute);
    expect(await t.cache.read("analytics:30", t.compute)).toEqual({ computation: 2 });
    expect(await t.cache.read("analytics:7", t.compute)).toEqual({ computation: 1 });
  });

  it("lets concurrent misses share one computation", async () => {
    const t = setup();
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.cache.read("dashboard", t.compute)));
    expect(new Set(answers.map((a) => a.computation))).toEqual(new Set([1]));
    expect(t.computations()).toBe(1);
  });

  it("never keeps a failed computation: the next read tries again", async () => {
    const t = setup();
    await expect(t.cache.read("dashboard", () => Promise.reject(new Error("database unavailable")))).rejects.toThrow("database unavailable");
    expect(await t.cache.read("dashboard", t.compute)).toEqual({ computation: 1 });
  });

  it("marks an answer computed across a write as stale for the next reader", async () => {
    const t = setup();
    let release!: () => void;
    const slow = t.cache.read("dashboard", async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return { computation: 0 };
    });
    t.write(); // lands while the first computation is still reading
    release();
    await slow;
    expect(await t.cache.read("dashboard", t.compute)).toEqual({ computation: 1 });
  });

  it("stays bounded when many keys are used", async () => {
    const t = setup();
    for (let i = 0; i < 500; i++) await t.cache.read(`key:${i}`, t.compute);
    // The last key is still served from the cache; the map did not grow to 500 entries.
    const before = t.computations();
    await t.cache.read("key:499", t.compute);
    expect(t.computations()).toBe(before);
    expect((t.cache as unknown as { entries: Map<string, unknown> }).entries.size).toBeLessThanOrEqual(READ_CACHE_MAX_ENTRIES);
  });
});
