import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { serveWebApp } from "./static-files.ts";

function builtApp() {
  const root = mkdtempSync(join(tmpdir(), "web-"));
  mkdirSync(join(root, "assets"));
  mkdirSync(join(root, ".vite"));
  writeFileSync(join(root, "index.html"), "<!doctype html><div id=root></div>");
  writeFileSync(join(root, "assets/app-abc.js"), "console.log('hello');".repeat(50));
  writeFileSync(join(root, ".vite/manifest.json"), "{}");
  const app = new Hono();
  app.use("*", serveWebApp(root));
  app.all("*", (c) => c.text("fell through", 404));
  return app;
}

describe("serveWebApp", () => {
  it("serves hashed assets for a year, compressed as the browser accepts", async () => {
    const app = builtApp();
    const br = await app.request("/assets/app-abc.js", { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("cache-control")).toContain("immutable");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toContain("hello");

    const gz = await app.request("/assets/app-abc.js", { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toContain("hello");

    const plain = await app.request("/assets/app-abc.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toContain("hello");
  });

  it("answers app routes with index.html and unknown assets with 404", async () => {
    const app = builtApp();
    const page = await app.request("/vendors/123");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("id=root");
    expect((await app.request("/assets/missing.js")).status).toBe(404);
  });

  it("never serves dot-paths such as the build manifest, nor escapes the root", async () => {
    const app = builtApp();
    const manifest = await app.request("/.vite/manifest.json");
    expect(await manifest.text()).toContain("id=root");
    const escape = await app.request("/..%2f..%2fetc%2fpasswd");
    expect(await escape.text()).not.toContain("root:");
  });

  it("leaves /api to the API", async () => {
    const res = await builtApp().request("/api/anything");
    expect(await res.text()).toBe("fell through");
  });
});
