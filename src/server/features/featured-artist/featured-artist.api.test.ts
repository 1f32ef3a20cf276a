import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { featuredArtistResponseSchema, publicFeaturedArtistSchema } from "../../../contract/featured-artist.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.parse(NOW) + days * DAY).toISOString();

describe.each(testDatabaseKinds)("featured artist (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string; email: string };
  let v: Record<"ada" | "bo" | "cy" | "internal" | "suspended", string>;

  const vendor = async (name: string, extra: { isInternal?: boolean; isActive?: boolean } = {}) =>
    (
      await createVendor(
        ctx.database.db,
        { name, ownerName: "Owner", email: `${name.toLowerCase()}@example.com`, slug: name.toLowerCase(), about: `About ${name}`, joinedAt: "2026-01-01T00:00:00.000Z", ...extra },
        ctx.clock,
      )
    ).id;
  let signIns = 0;
  /** Moves the clock; test sessions last an hour, so the admin signs in again. */
  const travel = async (to: string) => {
    ctx.clock.set(to);
    admin = await ctx.createUser({ email: `boss${++signIns}@hki.global` });
  };
  const get = async () => {
    const res = await ctx.request("/api/admin/featured-artist", { token: admin.token });
    expect(res.status).toBe(200);
    return featuredArtistResponseSchema.parse(await res.json());
  };
  const feature = (json: unknown, token = admin.token) => ctx.request("/api/admin/featured-artist", { method: "POST", token, json });
  const featureOk = async (json: unknown) => {
    const res = await feature(json);
    expect(res.status, await res.clone().text()).toBe(201);
    return featuredArtistResponseSchema.parse(await res.json());
  };
  const auditActions = async () =>
    (await ctx.database.db.selectFrom("audit_log").select(["action", "target_id"]).where("action", "like", "featured_artist.%").orderBy("created_at").orderBy("id").execute()).map(
      (r) => `${r.action} ${r.target_id}`,
    );

  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "boss@hki.global", role: "admin" });
    v = {
      ada: await vendor("Ada"),
      bo: await vendor("Bo"),
      cy: await vendor("Cy"),
      internal: await vendor("House", { isInternal: true }),
      suspended: await vendor("Sleepy", { isActive: false }),
    };
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("starts empty, features an artist from now for the given days, with who set it and an audit row", async () => {
    expect(await get()).toEqual({ current: null, upcoming: [], history: [] });
    const body = await featureOk({ vendorId: v.ada, duration: 7 });
    expect(body.current).toMatchObject({ vendorId: v.ada, vendorName: "Ada", startsAt: NOW, endsAt: at(7), setBy: "boss@hki.global", durationDays: 7, endedAt: null, endReason: null });
    expect(await get()).toEqual(body);
    expect(await auditActions()).toEqual([`featured_artist.set ${v.ada}`]);
  });

  it("replaces the current one, which ends now and goes to the history", async () => {
    await featureOk({ vendorId: v.ada, duration: 7 });
    await travel(at(1));
    const body = await featureOk({ vendorId: v.bo, duration: 3 });
    expect(body.current).toMatchObject({ vendorId: v.bo, startsAt: at(1), endsAt: at(4) });
    expect(body.history).toEqual([expect.objectContaining({ vendorId: v.ada, startsAt: NOW, endsAt: at(7), endedAt: at(1), endReason: "replaced" })]);
  });

  it("queues after the current and the queue, and the next one takes over when the current runs out", async () => {
    await featureOk({ vendorId: v.ada, duration: 2 });
    await featureOk({ vendorId: v.bo, duration: 5, startAfterCurrent: true });
    const body = await featureOk({ vendorId: v.cy, duration: 1, startAfterCurrent: true });
    expect(body.current?.vendorId).toBe(v.ada);
    expect(body.upcoming.map((s) => [s.vendorId, s.startsAt, s.endsAt])).toEqual([
      [v.bo, at(2), at(7)],
      [v.cy, at(7), at(8)],
    ]);
    expect(await auditActions()).toEqual([`featured_artist.set ${v.ada}`, `featured_artist.queue ${v.bo}`, `featured_artist.queue ${v.cy}`]);
    await travel(at(2));
    const later = await get();
    expect(later.current).toMatchObject({ vendorId: v.bo, startsAt: at(2) });
    expect(later.upcoming.map((s) => s.vendorId)).toEqual([v.cy]);
    expect(later.history).toEqual([expect.objectContaining({ vendorId: v.ada, endedAt: null, endReason: null, endsAt: at(2) })]);
    // Queued with nothing featured: starts now.
    await travel(at(30));
    const alone = await featureOk({ vendorId: v.ada, duration: 1, startAfterCurrent: true });
    expect(alone.current).toMatchObject({ vendorId: v.ada, startsAt: at(30) });
  });

  it("a replacement moves the queue to start after the new one", async () => {
    await featureOk({ vendorId: v.ada, duration: 10 });
    await featureOk({ vendorId: v.bo, duration: 2, startAfterCurrent: true });
    const body = await featureOk({ vendorId: v.cy, duration: 3 });
    expect(body.current).toMatchObject({ vendorId: v.cy, startsAt: NOW, endsAt: at(3) });
    expect(body.upcoming.map((s) => [s.vendorId, s.startsAt, s.endsAt])).toEqual([[v.bo, at(3), at(5)]]);
  });

  it("ends the current one early; the next queued one starts at once; 404 when none is featured", async () => {
    const none = await ctx.request("/api/admin/featured-artist/current", { method: "DELETE", token: admin.token });
    expect(none.status).toBe(404);
    expect((await none.json()) as unknown).toEqual({ error: { code: "not_found", message: "No artist is featured now" } });
    await featureOk({ vendorId: v.ada, duration: 7 });
    await featureOk({ vendorId: v.bo, duration: 2, startAfterCurrent: true });
    await travel(new Date(Date.parse(NOW) + 3_600_000).toISOString());
    const res = await ctx.request("/api/admin/featured-artist/current", { method: "DELETE", token: admin.token });
    expect(res.status).toBe(200);
    const body = featuredArtistResponseSchema.parse(await res.json());
    const oneHour = new Date(Date.parse(NOW) + 3_600_000).toISOString();
    expect(body.current).toMatchObject({ vendorId: v.bo, startsAt: oneHour, endsAt: new Date(Date.parse(oneHour) + 2 * DAY).toISOString() });
    expect(body.history[0]).toMatchObject({ vendorId: v.ada, endedAt: oneHour, endReason: "ended_early" });
    expect((await auditActions()).at(-1)).toBe(`featured_artist.end ${v.ada}`);
  });

  it("refuses unknown, internal and suspended vendors and bad durations, changing nothing", async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ vendorId: "no-such-vendor", duration: 7 }, 404, "Vendor not found"],
      [{ vendorId: v.internal, duration: 7 }, 422, "House is an internal store and cannot be featured"],
      [{ vendorId: v.suspended, duration: 7 }, 422, "Sleepy is suspended; reactivate the artist before featuring it"],
      [{ vendorId: v.ada, duration: 0 }, 400, "duration: must be between 1 and 90 days"],
      [{ vendorId: v.ada, duration: 91 }, 400, "duration: must be between 1 and 90 days"],
      [{ vendorId: v.ada, duration: 1.5 }, 400, "duration: must be a whole number of days"],
      [{ vendorId: v.ada, duration: "7" }, 400, "duration: must be a whole number of days"],
      [{ vendorId: v.ada }, 400, "duration: must be a whole number of days"],
      [{ vendorId: v.ada, duration: 7, extra: true }, 400, ""],
    ];
    for (const [json, status, message] of cases) {
      const res = await feature(json);
      expect(res.status, JSON.stringify(json)).toBe(status);
      const body = (await res.json()) as { error: { message: string } };
      if (message) expect(body.error.message).toBe(message);
    }
    expect(await get()).toEqual({ current: null, upcoming: [], history: [] });
    expect(await auditActions()).toEqual([]);
  });

  it("disabling the featured vendor ends its feature and drops its queued slots; the queue closes up", async () => {
    await featureOk({ vendorId: v.ada, duration: 7 });
    await featureOk({ vendorId: v.bo, duration: 2, startAfterCurrent: true });
    await featureOk({ vendorId: v.ada, duration: 1, startAfterCurrent: true });
    await featureOk({ vendorId: v.cy, duration: 4, startAfterCurrent: true });
    await travel(at(1));
    const res = await ctx.request(`/api/vendors/${v.ada}/status`, { method: "PATCH", token: admin.token, json: { isActive: false, reason: "Orders not shipped" } });
    expect(res.status).toBe(200);
    const body = await get();
    expect(body.current).toMatchObject({ vendorId: v.bo, startsAt: at(1), endsAt: at(3) });
    expect(body.upcoming.map((s) => [s.vendorId, s.startsAt, s.endsAt])).toEqual([[v.cy, at(3), at(7)]]);
    expect(body.history.map((s) => [s.vendorId, s.endReason, s.endedAt])).toEqual([
      [v.ada, "vendor_disabled", at(1)],
      [v.ada, "vendor_disabled", at(1)],
    ]);
    // Enabling again does not bring the feature back.
    await ctx.request(`/api/vendors/${v.ada}/status`, { method: "PATCH", token: admin.token, json: { isActive: true } });
    expect((await get()).current?.vendorId).toBe(v.bo);
  });

  it("deleting the featured vendor ends its feature; the history keeps its name", async () => {
    await featureOk({ vendorId: v.cy, duration: 7 });
    const res = await ctx.request(`/api/vendors/${v.cy}?action=delete`, { method: "DELETE", token: admin.token, json: { deleteFromClerk: false } });
    expect(res.status).toBe(200);
    const body = await get();
    expect(body.current).toBeNull();
    expect(body.history).toEqual([expect.objectContaining({ vendorId: v.cy, vendorName: "Cy", endReason: "vendor_deleted", endedAt: NOW })]);
  });

  it("viewers see it and change nothing", async () => {
    const viewer = await ctx.createUser({ email: "look@example.com", role: "viewer" });
    expect((await ctx.request("/api/admin/featured-artist", { token: viewer.token })).status).toBe(200);
    expect((await feature({ vendorId: v.ada, duration: 7 }, viewer.token)).status).toBe(403);
    expect((await ctx.request("/api/admin/featured-artist/current", { method: "DELETE", token: viewer.token })).status).toBe(403);
  });

  it("the storefront reads the current one without a token: public fields only, cacheable", async () => {
    const empty = await ctx.request("/api/public/featured-artist");
    expect(empty.status).toBe(200);
    expect(publicFeaturedArtistSchema.parse(await empty.json())).toEqual({ featured: null });
    await featureOk({ vendorId: v.ada, duration: 7 });
    const res = await ctx.request("/api/public/featured-artist");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(await res.json()).toEqual({ featured: { name: "Ada", slug: "ada", about: "About Ada", endsAt: at(7) } });
  });
});
