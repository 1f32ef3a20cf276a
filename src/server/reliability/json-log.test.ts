import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import type { AppEnv } from "../platform/request/app-env.ts";
import { createLogger, setProcessLog } from "../platform/logging/logger.ts";
import { JobWorker } from "../platform/jobs/job-worker.ts";
import { MAIL_MAX_ATTEMPTS, deliverOutboxMail, queueMail } from "../platform/mail/mail-outbox.ts";
import type { Mailer } from "../platform/mail/mailer.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../testing/test-app.ts";

const METRICS_TOKEN = "metrics-token-for-json-log-tests-0123";

/** A logger writing into `lines`, one string per line, as stdout would receive them. */
function capturingLogger(lines: string[]) {
  return createLogger("debug", { write: (line: string) => void lines.push(line) });
}

/** Every captured line is one whole JSON object: a stack's line breaks stay inside it. */
function parseLines(lines: string[]): Array<Record<string, unknown>> {
  for (const line of lines) expect(line.trimEnd().includes("\n"), line).toBe(false);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Issue 32: every line the server writes is JSON through pino and the redactor, and failed jobs and
 * mails are counted where an operator's alerts look (GET /metrics).
 */
describe.each(testDatabaseKinds)("the JSON log and the failure counters (%s)", (kind) => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx.close();
  });

  it("writes an unhandled 500's stack as one JSON line carrying the request id, with the secret it quoted redacted", async () => {
    ctx = await createTestContext(kind);
    const secret = `S3cr3t-${randomBytes(6).toString("hex")}`;
    const bearer = randomBytes(32).toString("base64url");
    const failing = new Hono<AppEnv>().get("/log-test/failure", () => {
      throw new Error(`upstream refused Bearer ${bearer} with password=${secret}`);
    });
    const lines: string[] = [];
    const app = createApp({ ...ctx.deps, logger: capturingLogger(lines) }, { extraRoutes: [failing] });

    const res = await app.request("/api/log-test/failure", { headers: { "x-request-id": "req-json-log-500" } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: "internal_error", message: "Internal server error" } });

    const entries = parseLines(lines);
    const failure = entries.filter((entry) => entry.msg === "unhandled exception");
    expect(failure).toHaveLength(1);
    expect(failure[0]).toMatchObject({ level: "error", requestId: "req-json-log-500", method: "GET", path: "/api/log-test/failure" });
    const err = failure[0]!.err as { type: string; message: string; stack: string };
    expect(err.type).toBe("Error");
    expect(err.message).toBe("upstream refused Bearer [redacted] with password=[redacted]");
    // The whole stack, frames included, in the one line.
    expect(err.stack.split("\n").length).toBeGreaterThan(2);
    expect(err.stack).toMatch(/\n\s+at /);
    // The access line of the same request shares its id.
    expect(entries.find((entry) => entry.msg === "request")).toMatchObject({ status: 500, requestId: "req-json-log-500" });
    const written = lines.join("");
    expect(written).not.toContain(secret);
    expect(written).not.toContain(bearer);
  });

  it("counts every failed job attempt by kind in hki_jobs_failed_total and writes a JSON line for it", async () => {
    ctx = await createTestContext(kind, { env: { METRICS_TOKEN } });
    const lines: string[] = [];
    setProcessLog(capturingLogger(lines));
    const worker = new JobWorker(ctx.database, ctx.clock, { retryBaseMs: 1000 });
    const secret = `S3cr3t-${randomBytes(6).toString("hex")}`;
    worker.register("log-test.fails", async () => {
      throw new Error(`the provider said no: api_key=${secret} refused`);
    });
    const before = await metricValue(ctx, 'hki_jobs_failed_total{kind="log-test.fails"}');
    const jobId = await ctx.deps.jobs.enqueue("log-test.fails", {}, { maxAttempts: 2 });

    expect(await worker.runOnce()).toBe(true);
    expect(await metricValue(ctx, 'hki_jobs_failed_total{kind="log-test.fails"}')).toBe(before + 1);
    ctx.clock.advance(1_000);
    expect(await worker.runOnce()).toBe(true);
    expect(await metricValue(ctx, 'hki_jobs_failed_total{kind="log-test.fails"}')).toBe(before + 2);
    expect(await worker.runOnce()).toBe(false);

    const entries = parseLines(lines).filter((entry) => entry.kind === "log-test.fails");
    expect(entries.map((entry) => [entry.level, entry.msg, entry.attempt])).toEqual([
      ["warn", "job attempt failed; tried again later", 1],
      ["error", "job failed for good", 2],
    ]);
    expect(entries[1]).toMatchObject({ jobId, maxAttempts: 2, err: { message: "the provider said no: api_key=[redacted] refused" } });
    expect(lines.join("")).not.toContain(secret);
  });

  it("counts each mail that finally fails in hki_mail_failed_total: its attempts used up, or cut off mid-send", async () => {
    ctx = await createTestContext(kind, { env: { METRICS_TOKEN } });
    const refusing: Mailer = {
      kind: "smtp",
      destination: "smtp://refusing.test",
      send: () => Promise.reject(new Error("550 mailbox unavailable")),
      close: () => undefined,
    };
    const send = (id: string) => deliverOutboxMail(ctx.database.db, refusing, ctx.clock, id, "HKI <no-reply@hki.global>");
    const attemptsBefore = await metricValue(ctx, 'hki_mail_failed_total{reason="attempts"}');
    const interruptedBefore = await metricValue(ctx, 'hki_mail_failed_total{reason="interrupted"}');

    const refused = await queueMail(ctx.database.db, ctx.deps.jobs, ctx.clock, { to: "someone@example.com", subject: "Hello", text: "Hi" });
    for (let attempt = 1; attempt < MAIL_MAX_ATTEMPTS; attempt++) {
      await expect(send(refused)).rejects.toThrow(/550 mailbox unavailable/);
      // Tried again later: not a failed mail yet.
      expect(await metricValue(ctx, 'hki_mail_failed_total{reason="attempts"}')).toBe(attemptsBefore);
    }
    expect(await send(refused)).toBe("gave-up");
    expect(await metricValue(ctx, 'hki_mail_failed_total{reason="attempts"}')).toBe(attemptsBefore + 1);

    const cutOff = await queueMail(ctx.database.db, ctx.deps.jobs, ctx.clock, { to: "other@example.com", subject: "Hello", text: "Hi" });
    await ctx.database.db.updateTable("mail_outbox").set({ status: "sending", attempts: 1, sending_at: ctx.clock.now().toISOString() }).where("id", "=", cutOff).execute();
    expect(await send(cutOff)).toBe("interrupted");
    expect(await metricValue(ctx, 'hki_mail_failed_total{reason="interrupted"}')).toBe(interruptedBefore + 1);
    expect(await metricValue(ctx, 'hki_mail_failed_total{reason="attempts"}')).toBe(attemptsBefore + 1);
  });
});

/** One series' value as GET /metrics answers it (0 while the series does not exist yet). */
async function metricValue(ctx: TestContext, series: string): Promise<number> {
  const res = await ctx.request("/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  const line = (await res.text()).split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
