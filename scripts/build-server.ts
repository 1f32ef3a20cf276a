import { build } from "esbuild";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The production server: src/server/main.ts bundled by esbuild into dist/server/main.js, run with
 * plain `node` (docs/decisions/0005). Our own TypeScript is bundled; npm packages stay external and
 * load from node_modules as usual (native better-sqlite3, jsdom loaded lazily on first use). Code
 * splitting puts the server (serve.ts, imported dynamically) in a chunk of its own, so a cluster
 * primary that only supervises never loads it.
 */
export const SERVER_ENTRY = "src/server/main.ts";
export const SERVER_BUNDLE = "dist/server/main.js";

/**
 * How to run the server as ONE process, so its pid is the server's: from source
 * (`node --import tsx`, for tests that run before any build) or the production bundle
 * (`node dist/server/main.js`, what `npm start` runs; for load, fault and benchmark runs). Never
 * through the tsx CLI: it is a launcher that spawns node as a child, so a kill -9 aimed at it
 * would leave the real server running as an orphan and the crash would never happen.
 */
export function serverCommand(from: "source" | "build"): [string, ...string[]] {
  return from === "build" ? [process.execPath, SERVER_BUNDLE] : [process.execPath, "--import", "tsx", "src/server/main.ts"];
}

export async function buildServer(root = process.cwd()): Promise<void> {
  // Chunk names carry content hashes: old ones would pile up.
  rmSync(join(root, dirname(SERVER_BUNDLE)), { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: [SERVER_ENTRY],
    outdir: dirname(SERVER_BUNDLE),
    splitting: true,
    // Chunks stay beside main.js: serve.ts finds the web app by a path relative to its own file.
    chunkNames: "[name]-[hash]",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20.19",
    packages: "external",
    // Unminified: stack traces in the error log stay readable without source maps.
    minify: false,
    sourcemap: "linked",
    logLevel: "warning",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer();
  console.log(`Built the server: ${SERVER_BUNDLE}`);
}
