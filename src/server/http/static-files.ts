import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import type { MiddlewareHandler } from "hono";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * Serves the built web app. Hashed files under /assets are cached for a year; every other GET that
 * is not an /api call gets index.html (the SPA decides the route, including its own 404 screen).
 * Files are read once and kept in memory: the build is small and immutable while the process runs.
 */
export function serveWebApp(root: string): MiddlewareHandler {
  const absoluteRoot = resolve(root);
  const cache = new Map<string, Buffer>();
  const indexPath = join(absoluteRoot, "index.html");

  async function load(path: string): Promise<Buffer | null> {
    const hit = cache.get(path);
    if (hit) return hit;
    try {
      const content = await readFile(path);
      cache.set(path, content);
      return content;
    } catch {
      return null;
    }
  }

  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    if (c.req.path === "/api" || c.req.path.startsWith("/api/")) return next();
    let relative: string;
    try {
      relative = normalize(decodeURIComponent(c.req.path)).replace(/^([/\\])+/, "");
    } catch {
      return next();
    }
    const candidate = resolve(absoluteRoot, relative);
    const insideRoot = candidate.startsWith(absoluteRoot + sep);
    if (insideRoot && extname(candidate) !== "") {
      const file = await load(candidate);
      if (file) {
        const immutable = relative.startsWith("assets/");
        return c.body(new Uint8Array(file), 200, {
          "Content-Type": CONTENT_TYPES[extname(candidate)] ?? "application/octet-stream",
          "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
        });
      }
      if (relative.startsWith("assets/")) return c.text("Not found", 404);
    }
    const index = await load(indexPath);
    if (!index) return c.text("The web app is not built. Run `npm run build` (npm start does it for you).", 503);
    return c.body(new Uint8Array(index), 200, { "Content-Type": CONTENT_TYPES[".html"]!, "Cache-Control": "no-cache" });
  };
}

export function webAppIsBuilt(root: string): boolean {
  return existsSync(join(root, "index.html"));
}
