import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { MATCH_CACHE_SIZE, MatchCacheRouter } from "./match-cache-router.ts";

function appWithRoutes() {
  const app = new Hono({ router: new MatchCacheRouter() });
  app.use("/api/*", async (c, next) => {
    c.header("X-Seen-By", "api middleware");
    await next();
  });
  app.post("/errors/archive", (c) => c.text("archive the selected"));
  app.post("/errors/:id/archive", (c) => c.text(`archive ${c.req.param("id")}`));
  app.get("/api/vendors/:id", (c) => c.text(`vendor ${c.req.param("id")}`));
  return app;
}

describe("MatchCacheRouter", () => {
  it("answers the same routes as the trie router, the second time from memory", async () => {
    const app = appWithRoutes();
    for (let round = 0; round < 2; round++) {
      expect(await (await app.request("/errors/archive", { method: "POST" })).text()).toBe("archive the selected");
      expect(await (await app.request("/errors/e-1/archive", { method: "POST" })).text()).toBe("archive e-1");
      const vendor = await app.request("/api/vendors/v%201");
      expect(await vendor.text()).toBe("vendor v 1");
      expect(vendor.headers.get("X-Seen-By")).toBe("api middleware");
      expect((await app.request("/errors/archive")).status).toBe(404);
    }
  });

  it("gives each request its own parameters although the match is shared", async () => {
    const app = appWithRoutes();
    const [a, b] = await Promise.all([app.request("/api/vendors/a"), app.request("/api/vendors/b")]);
    expect([await a.text(), await b.text()]).toEqual(["vendor a", "vendor b"]);
    expect(await (await app.request("/api/vendors/a")).text()).toBe("vendor a");
  });

  it("forgets its matches when a route is added", async () => {
    const app = appWithRoutes();
    expect((await app.request("/health")).status).toBe(404);
    app.get("/health", (c) => c.text("ok"));
    expect(await (await app.request("/health")).text()).toBe("ok");
  });

  it("keeps at most its size, dropping the oldest", () => {
    const router = new MatchCacheRouter<string>();
    router.add("GET", "/vendors/:id", "vendor");
    const first = router.match("GET", "/vendors/0");
    expect(router.match("GET", "/vendors/0")).toBe(first);
    for (let i = 1; i <= MATCH_CACHE_SIZE; i++) router.match("GET", `/vendors/${i}`);
    const again = router.match("GET", "/vendors/0");
    expect(again).not.toBe(first);
    expect(again[0][0]?.[1]).toEqual({ id: "0" });
  });
});
