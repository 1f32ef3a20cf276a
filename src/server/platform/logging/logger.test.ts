import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createLogger, logEvent, logLifecycle } from "./logger.ts";

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
const accessLogModule = JSON.stringify(new URL("../request/access-log.ts", import.meta.url).href);

describe("the server's log on stdout", () => {
  it("writes every line whole and in order, multi-byte text intact, up to the last before exit", () => {
    const { lines } = runLoggerChild(`
      const { createLogger } = await import(${loggerModule});
      const { logAccess } = await import(${accessLogModule});
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
      const { createLogger } = await import(${loggerModule});
      const { logAccess } = await import(${accessLogModule});
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

describe("event lines", () => {
  const capture = (level: string) => {
    const lines: string[] = [];
    return { lines, logger: createLogger(level, { write: (line: string) => void lines.push(line) }) };
  };

  it("writes an event as one JSON line: message, fields and stack through the redactor", () => {
    const { lines, logger } = capture("info");
    const err = new TypeError("refused: token=abc123def and Bearer eyJhbGciOi.eyJzdWIiOi.c2ln");
    logEvent(logger, "error", "provider call failed for password=hunter2", { kind: "payouts", apiKey: "sk_live_0123456789abcdef", err });
    logEvent(logger, "debug", "below the level: not written");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.trimEnd()).not.toContain("\n");
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: "error", msg: "provider call failed for password=[redacted]", kind: "payouts", apiKey: "[redacted]" });
    expect(line.err).toMatchObject({ type: "TypeError", message: "refused: token=[redacted] and Bearer [redacted]" });
    expect((line.err as { stack: string }).stack).toMatch(/^TypeError: refused: token=\[redacted\][^\n]*\n\s+at /);
    expect(lines[0]).not.toMatch(/abc123def|hunter2|sk_live|eyJ/);
  });

  it("writes start and stop lines whatever LOG_LEVEL says, but not when it is silent", () => {
    const quiet = capture("warn");
    logLifecycle(quiet.logger, "HKI Global Admin listening on http://127.0.0.1:3000 (database: sqlite)");
    logEvent(quiet.logger, "info", "an ordinary event");
    expect(quiet.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: "info", msg: "HKI Global Admin listening on http://127.0.0.1:3000 (database: sqlite)" }),
    ]);
    const silent = capture("silent");
    logLifecycle(silent.logger, "SIGTERM received, shutting down");
    expect(silent.lines).toEqual([]);
  });
});
