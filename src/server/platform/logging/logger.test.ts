import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/**
 * The production destination (stdout, written asynchronously) in a process of its own, as the
 * server runs: every line arrives whole and in order, multi-byte text intact, including lines
 * still pending when the process exits.
 */
function runLoggerChild(script: string): { lines: Array<Record<string, unknown>>; status: number | null } {
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`logger child failed (${child.status ?? child.signal ?? child.error?.message}): ${child.stderr}`);
  return {
    lines: child.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>),
    status: child.status,
  };
}

const loggerModule = JSON.stringify(new URL("./logger.ts", import.meta.url).href);

describe("the server's log on stdout", () => {
  it("writes every line whole and in order, multi-byte text intact, up to the last before exit", () => {
    const { lines } = runLoggerChild(`
      const { createLogger, logAccess } = await import(${loggerModule});
      const logger = createLogger("info");
      for (let i = 0; i < 5000; i++) {
        if (i % 2) logger.info({ vendor: "Åsa Ørsted 陶器 " + i }, "renamed ✓");
        else logAccess(logger, { method: "GET", path: "/api/admin/dashboard/stats", status: 200, durationMs: 1.26, userId: null, requestId: "r-" + i, clientIp: "127.0.0.1" });
      }
      process.exit(0);
    `);
    expect(lines).toHaveLength(5000);
    expect(lines.filter((_, i) => i % 2 === 0).map((line) => line.requestId)).toEqual(Array.from({ length: 2500 }, (_, i) => `r-${i * 2}`));
    expect(lines[4998]).toMatchObject({ level: "info", msg: "request", status: 200, durationMs: 1.3 });
    expect(lines[4999]).toMatchObject({ vendor: "Åsa Ørsted 陶器 4999", msg: "renamed ✓" });
  });

  it("writes a line in a multi-byte message and at the error level", () => {
    const { lines } = runLoggerChild(`
      const { createLogger, logAccess } = await import(${loggerModule});
      const logger = createLogger("info");
      logger.warn({ vendor: "Søren’s Ceramics — 陶器" }, "renamed ✓");
      logAccess(logger, { method: "POST", path: "/api/admin/payouts", status: 503, durationMs: 4, userId: "u-1", requestId: "r-x", clientIp: "::1" });
    `);
    expect(lines).toEqual([
      expect.objectContaining({ level: "warn", vendor: "Søren’s Ceramics — 陶器", msg: "renamed ✓" }),
      expect.objectContaining({ level: "error", status: 503, requestId: "r-x" }),
    ]);
  });
});
