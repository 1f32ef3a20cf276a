import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCrashRounds } from "../testing/crash-rounds.ts";

/** kill -9 of the real server process mid-stream of acknowledged writes, 5 rounds on one file. */
describe("crash safety (SQLite, real server process)", () => {
  const dir = mkdtempSync(join(tmpdir(), "hki-crash-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps every acknowledged write, an intact file and consistent rollups over 5 kill -9 rounds", async () => {
    const results = await runCrashRounds(join(dir, "admin.sqlite"), { rounds: 5, log: (line) => console.log(`[crash] ${line}`) });
    expect(results).toHaveLength(5);
    for (const r of results) {
      expect(r.integrity, `round ${r.round}`).toBe("ok");
      expect(r.missing, `round ${r.round}`).toEqual([]);
      expect(r.rollupDifferences, `round ${r.round}`).toBe(0);
    }
    // The rounds must have had writes in flight to prove anything.
    expect(results.reduce((sum, r) => sum + r.acknowledged, 0)).toBeGreaterThan(20);
  }, 180_000);
});
