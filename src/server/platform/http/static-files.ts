import { requestHeader } from "./exchange-headers.ts";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlibConstants, gzip } from "node:zlib";
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

/** Text formats worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".svg", ".json", ".txt"]);

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

interface StaticFile {
  raw: Buffer;
  /** Compressed once, on first request, then served from memory. */
  brotli?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
}

type Encoding = "br" | "gzip" | null;

function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = (acceptEncoding ?? "").toLowerCase();
  if (/\bbr\b/.test(accepted)) return "br";
  if (/\bgzip\b/.test(accepted)) return "gzip";
  return null;
}

/**
 * Compression runs on libuv's thread pool, never on the event loop: brotli at quality 11 takes
 * ~0.65 s for the 400 kB chart chunk, which done synchronously stalled every API request meanwhile.
 */
function encoded(file: StaticFile, encoding: Exclude<Encoding, null>): Promise<Buffer> {
  if (encoding === "br") {
    file.brotli ??= brotliAsync(file.raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } });
    return file.brotli;
  }
  file.gzip ??= gzipAsync(file.raw, { level: 9 });
  return file.gzip;
}

/**
 * Serves the built web app. Hashed files under /assets are cached for a year; every other GET that
 * is not an /api call gets index.html (the SPA decides the route, including its own 404 screen).
 * Files are read once and kept in memory (the build is small and immutable while the process
 * runs), text files compressed with brotli or gzip as the browser accepts. Dot-paths such as
 * Vite's .vite/manifest.json are never served.
 */
export function serveWebApp(root: string): MiddlewareHandler {
  const absoluteRoot = resolve(root);
  const cache = new Map<string, StaticFile>();
  const indexPath = join(absoluteRoot, "index.html");

  async function load(path: string): Promise<StaticFile | null> {
    const hit = cache.get(path);
    if (hit) return hit;
    try {
      const file: StaticFile = { raw: await readFile(path) };
      cache.set(path, file);
      return file;
    } catch {
      return null;
    }
  }

  async function respond(file: StaticFile, extension: string, acceptEncoding: string | undefined, headers: Record<string, string>): Promise<Response> {
    const encoding = COMPRESSIBLE.has(extension) ? preferredEncoding(acceptEncoding) : null;
    const body = encoding ? await encoded(file, encoding) : file.raw;
    return new Response(new Uint8Array(body), {
      status: 200,
      headers: {
        "Content-Type": CONTENT_TYPES[extension] ?? "application/octet-stream",
        ...(encoding ? { "Content-Encoding": encoding } : {}),
        ...(COMPRESSIBLE.has(extension) ? { Vary: "Accept-Encoding" } : {}),
        ...headers,
      },
    });
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
    const hidden = relative.split(/[/\\]/).some((segment) => segment.startsWith("."));
    const acceptEncoding = requestHeader(c, "accept-encoding");
    if (insideRoot && !hidden && extname(candidate) !== "") {
      const file = await load(candidate);
      if (file) {
        const immutable = relative.startsWith("assets/");
        return respond(file, extname(candidate), acceptEncoding, {
          "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
        });
      }
      if (relative.startsWith("assets/")) return c.text("Not found", 404);
    }
    const index = await load(indexPath);
    if (!index) return c.text("The web app is not built. Run `npm run build` (npm start does it for you).", 503);
    return respond(index, ".html", acceptEncoding, { "Cache-Control": "no-cache" });
  };
}

export function webAppIsBuilt(root: string): boolean {
  return existsSync(join(root, "index.html"));
}
