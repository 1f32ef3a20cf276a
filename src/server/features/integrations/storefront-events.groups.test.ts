import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { compareRollups } from "../../domain/ledger/recompute.ts";
import { artist, event, postEvents, send } from "../../testing/storefront-events.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { eventGroups } from "./storefront-events.service.ts";

/**
 * Events committed in groups, each in its own savepoint (docs/decisions/0021-storefront-events-committed-in-groups.md).
 * Every refusal the panel makes comes before an event writes anything, so to see what a failure
 * after the writes leaves, `applyEvent` is wrapped: it applies the event for real, then fails as
 * the artist's id asks.
 */
const failures = new Map<string, () => Error | null>();

vi.mock("./storefront-events.apply.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("./storefront-events.apply.ts")>();
  return {
    ...real,
    applyEvent: async (...args: Parameters<typeof real.applyEvent>) => {
      const outcome = await real.applyEvent(...args);
      const artistId = (args[2] as { artistId?: string }).artistId ?? "";
      const failure = failures.get(artistId)?.();
      if (failure) throw failure;
      return outcome;
    },
  };
});

const { EventRejection } = await import("./storefront-events.apply.ts");

describe.each(testDatabaseKinds)("storefront events committed in groups (%s)", (kind) => {
  let ctx: TestContext;
  let key: string;
  const saved = { ...eventGroups };
  const artistIds = async () => (await ctx.database.db.selectFrom("vendors").select("external_id").where("external_id", "is not", null).orderBy("external_id").execute()).map((r) => r.external_id);
  const recordedEvents = async () =>
    Number(
      (
        await ctx.database.db
          .selectFrom("storefront_events")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: "2026-11-22T12:00:00.000Z" });
    key = (await ctx.createApiKey()).key;
    // The whole batch in one group.
    Object.assign(eventGroups, { budgetMs: Number.POSITIVE_INFINITY, maxEvents: 50 });
  });
  afterEach(async () => {
    Object.assign(eventGroups, saved);
    failures.clear();
    await ctx.close();
  });

  it("an event refused after it wrote leaves nothing of itself; the events before and after it in its group stand", async () => {
    failures.set("refused", () => new EventRejection("invalid_input", "data.name: refused after writing", { "data.name": "refused" }));
    const results = await send(ctx, key, [event("artist.created", artist("before")), event("artist.created", artist("refused")), event("artist.created", artist("after"))]);
    expect(results.map((r) => r.status)).toEqual(["applied", "rejected", "applied"]);
    expect(results[1]!.error).toMatchObject({ code: "invalid_input", fields: { "data.name": "refused" } });
    expect(await artistIds()).toEqual(["after", "before"]);
    expect(await recordedEvents()).toBe(2);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("a crash inside a group applies nothing of that group; the batch sent again applies each event once", async () => {
    failures.set("crash", () => new Error("the process fell over"));
    const batch = [event("artist.created", artist("one")), event("artist.created", artist("crash")), event("artist.created", artist("three"))];
    const crashed = await postEvents(ctx, key, batch);
    expect(crashed.status).toBe(500);
    expect(await artistIds()).toEqual([]);
    expect(await recordedEvents()).toBe(0);

    failures.clear();
    expect((await send(ctx, key, batch)).map((r) => r.status)).toEqual(["applied", "applied", "applied"]);
    expect((await send(ctx, key, batch)).map((r) => r.status)).toEqual(["duplicate", "duplicate", "duplicate"]);
    expect(await artistIds()).toEqual(["crash", "one", "three"]);
    expect(await recordedEvents()).toBe(3);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });

  it("a race inside a group rolls the group back and applies its events again, each once", async () => {
    // Another writer got there first (a unique index refused the row) the first time only.
    let raced = false;
    failures.set("raced", () => {
      if (raced) return null;
      raced = true;
      return Object.assign(new Error("UNIQUE constraint failed"), { code: kind === "sqlite" ? "SQLITE_CONSTRAINT_UNIQUE" : "23505" });
    });
    const results = await send(ctx, key, [event("artist.created", artist("first")), event("artist.created", artist("raced")), event("artist.created", artist("last"))]);
    expect(raced).toBe(true);
    expect(results.map((r) => r.status)).toEqual(["applied", "applied", "applied"]);
    expect(await artistIds()).toEqual(["first", "last", "raced"]);
    expect(await recordedEvents()).toBe(3);
    expect(await compareRollups(ctx.database.db)).toEqual([]);
  });
});
