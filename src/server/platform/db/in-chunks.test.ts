import { describe, expect, it } from "vitest";
import { msSinceLastRequest, noteRequest } from "../traffic.ts";
import { BUSY_WINDOW_MS, inChunks, restAfterChunk } from "./in-chunks.ts";

describe("the chunk loop's rests", () => {
  it("background work rests 4 times a chunk's time while idle and 49 times while requests come in", () => {
    expect(restAfterChunk("background", 2, Number.POSITIVE_INFINITY)).toBe(8);
    expect(restAfterChunk("background", 2, BUSY_WINDOW_MS + 1)).toBe(8);
    expect(restAfterChunk("background", 2, 10)).toBe(98);
    // A chunk far over its 2 ms budget counts as four budgets: the next one is smaller anyway.
    expect(restAfterChunk("background", 100, Number.POSITIVE_INFINITY)).toBe(32);
    expect(restAfterChunk("background", 100, 0)).toBe(392);
  });

  it("a bulk write someone waits for keeps half of the time, busy or not", () => {
    expect(restAfterChunk("request", 15, Number.POSITIVE_INFINITY)).toBe(15);
    expect(restAfterChunk("request", 15, 0)).toBe(15);
  });

  it("a request begun just now counts as traffic", () => {
    noteRequest();
    expect(msSinceLastRequest()).toBeLessThan(BUSY_WINDOW_MS);
  });

  it("runs chunks until one changes nothing, and stops when asked", async () => {
    let left = 300;
    const done = await inChunks(async (size) => {
      const n = Math.min(size, left);
      left -= n;
      return n;
    });
    expect(done).toEqual({ total: 300, stopped: false });
    let calls = 0;
    const stopped = await inChunks(async () => (++calls, 5), { shouldStop: async () => calls >= 2, pace: "background" });
    expect(stopped).toEqual({ total: 10, stopped: true });
  });
});
