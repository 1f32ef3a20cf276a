import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { incomingEventsResponseSchema } from "../../contract/integrations-inbound.ts";
import { JobWorker } from "../platform/jobs/job-worker.ts";
import { incomingEventsJobs } from "../features/integrations/incoming-events.job.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../testing/test-app.ts";

/** After `npm start` the Integrations screen's 'Incoming events' shows every source and outcome, and its failed event can be retried. */
describe.each(testDatabaseKinds)("the demo's incoming events (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  beforeAll(async () => {
    ctx = await createTestContext(kind, { seedDemo: true });
    admin = await ctx.createUser({ email: "demo-viewer@hki.global", role: "admin" });
  });
  afterAll(async () => {
    await ctx.close();
  });

  const log = async (query = "") => {
    const res = await ctx.request(`/api/admin/integrations/incoming-events${query}`, { token: admin.token });
    expect(res.status).toBe(200);
    return incomingEventsResponseSchema.parse(await res.json()).items;
  };

  it("lists storefront, Stripe and Clerk events with every outcome but pending, and the failed one is retried", async () => {
    const items = await log("?limit=100");
    expect(new Set(items.map((e) => e.source))).toEqual(new Set(["storefront", "stripe", "clerk"]));
    expect(new Set(items.map((e) => e.outcome))).toEqual(new Set(["processed", "ignored", "stale", "failed"]));
    const [failed] = await log("?outcome=failed");
    expect(failed).toMatchObject({ source: "stripe", type: "transfer.reversed", retryable: true });

    const retry = await ctx.request(`/api/admin/integrations/incoming-events/${failed!.id}/retry`, { method: "POST", token: admin.token });
    expect(retry.status).toBe(200);
    const worker = new JobWorker(ctx.database, ctx.clock);
    incomingEventsJobs(worker, ctx.deps);
    while (await worker.runOnce()) {
      /* next job */
    }
    const after = (await log("?source=stripe")).find((e) => e.id === failed!.id);
    expect(after).toMatchObject({ outcome: "ignored", retryable: false, message: "tr_1DemoUnknownTransfer is not a payout of this panel" });
  });
});
