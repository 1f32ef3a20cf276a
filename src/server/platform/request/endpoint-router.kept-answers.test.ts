import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineEndpoint } from "../../../contract/endpoint.ts";
import { fixedClock } from "../clock.ts";
import { ReadCache } from "../db/read-cache.ts";
import type { ActingUser } from "../identity/actor.ts";
import type { AppEnv } from "./app-env.ts";
import { EndpointRouter, type RequestFacts } from "./endpoint-router.ts";

/**
 * The endpoint router keeps the answers a definition declares keepable (`cache`), and does two
 * things on the request path for speed whose breaking no other test would notice (decision 0017):
 * a request's facts are one class (one hidden class for every request), and a kept answer is
 * serialised once, not once per request.
 */
function harness() {
  let version = 0;
  const clock = fixedClock("2026-11-22T12:00:00.000Z");
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    const id = c.req.query("as") ?? "ava";
    c.set("user", { id, email: `${id}@hki.global`, role: "admin" } as unknown as ActingUser);
    c.set("requestId", "r");
    c.set("clientIp", "127.0.0.1");
    c.set("dataVersion", () => String(version));
    await next();
  });
  const router = new EndpointRouter(app, new ReadCache(clock, () => String(version)));
  const base = { method: "get", area: "dashboard", access: "staff", summary: "x", success: { status: 200, description: "x", schema: z.object({ n: z.number(), by: z.string() }) } } as const;
  let computed = 0;
  const facts: RequestFacts[] = [];
  const answer = (_input: unknown, request: RequestFacts) => {
    facts.push(request);
    return { n: ++computed, by: request.user?.id ?? "nobody" };
  };
  router.handle(defineEndpoint({ ...base, path: "/api/admin/shared", cache: { per: "everyone" } }), answer);
  router.handle(defineEndpoint({ ...base, path: "/api/admin/mine", cache: { per: "caller" }, query: z.strictObject({ as: z.string().optional(), search: z.string().optional() }) }), answer);
  router.handle(
    defineEndpoint({
      ...base,
      path: "/api/admin/searchable",
      cache: { per: "everyone", unlessQuery: ["search"] },
      query: z.strictObject({ search: z.string().optional(), page: z.string().optional() }),
    }),
    answer,
  );
  router.handle(defineEndpoint({ ...base, path: "/api/admin/fresh" }), answer);
  const get = async (path: string) => (await (await app.request(path)).json()) as { n: number; by: string };
  return { get, facts, write: () => (version += 1), clock, router };
}

describe("answers kept by their definition (endpoint router)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps an answer for everyone until the data changes or it is a second old", async () => {
    const h = harness();
    expect((await h.get("/api/admin/shared")).n).toBe(1);
    expect((await h.get("/api/admin/shared?as=ben")).n).toBe(1);
    h.write();
    expect((await h.get("/api/admin/shared")).n).toBe(2);
    h.clock.advance(1_000);
    expect((await h.get("/api/admin/shared")).n).toBe(3);
    // Without a declaration nothing is kept.
    expect((await h.get("/api/admin/fresh")).n).toBe(4);
    expect((await h.get("/api/admin/fresh")).n).toBe(5);
  });

  it("keeps a caller's answer for that caller only, and reads a search afresh", async () => {
    const h = harness();
    const ava = await h.get("/api/admin/mine?as=ava");
    expect(await h.get("/api/admin/mine?as=ava")).toEqual(ava);
    const ben = await h.get("/api/admin/mine?as=ben");
    expect(ben).toEqual({ n: ava.n + 1, by: "ben" });
    const page = await h.get("/api/admin/searchable?page=2");
    expect(await h.get("/api/admin/searchable?page=2")).toEqual(page);
    expect((await h.get("/api/admin/searchable?page=3")).n).toBe(page.n + 1);
    const searched = await h.get("/api/admin/searchable?search=ava");
    expect((await h.get("/api/admin/searchable?search=ava")).n).toBe(searched.n + 1);
  });

  it("refuses to keep what is not a GET answer", () => {
    const h = harness();
    const post = defineEndpoint({
      method: "post",
      path: "/api/admin/x",
      area: "dashboard",
      access: { roles: ["admin"] },
      summary: "x",
      cache: { per: "everyone" },
      success: { status: 204, description: "x" },
    });
    expect(() => h.router.handle(post, () => undefined)).toThrow(/only GET answers may be kept/);
  });

  it("serialises a kept answer once, however many requests it serves", async () => {
    const h = harness();
    const stringify = vi.spyOn(JSON, "stringify");
    const first = await h.get("/api/admin/shared");
    await h.get("/api/admin/shared");
    await h.get("/api/admin/shared");
    const made = stringify.mock.results.map((r) => r.value as unknown);
    stringify.mockRestore();
    const text = JSON.stringify(first);
    expect(made.filter((value) => value === text)).toHaveLength(1);
  });

  it("gives every request's facts one shape: a class whose rarer parts are prototype getters", async () => {
    const h = harness();
    await h.get("/api/admin/fresh");
    await h.get("/api/admin/fresh?as=ben");
    const [a, b] = h.facts;
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
    expect(Object.getPrototypeOf(a)).not.toBe(Object.prototype);
    const accessors = Object.entries(Object.getOwnPropertyDescriptors(a)).filter(([, d]) => d.get || d.set);
    expect(accessors).toEqual([]);
    expect(a!.actor?.user.id).toBe("ava");
  });
});
