import { build, type BuildOptions, type Metafile } from "esbuild";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SERVER_BUNDLE, SERVER_ENTRY } from "../src/server/testing/server-command.ts";

/**
 * The production server: src/server/main.ts bundled by esbuild into dist/server/main.js, run with
 * plain `node` (docs/decisions/0005). Our own TypeScript is bundled; npm packages stay external and
 * load from node_modules as usual (native better-sqlite3, jsdom loaded lazily on first use). Code
 * splitting puts the server (serve.ts, imported dynamically) in a chunk of its own, so a cluster
 * primary that only supervises never loads it. The storefront events' writer thread has an entry
 * of its own beside main.js (features/integrations/storefront-events.thread.ts starts it from there).
 */
export { SERVER_BUNDLE, SERVER_ENTRY };

/**
 * Test-only code (test files, and the `testing/` folders: harness, fixtures, fakes) never ships:
 * the bundle's inputs that are such files, which must be none.
 */
export function testOnlyInputs(metafile: Metafile): string[] {
  return Object.keys(metafile.inputs).filter((path) => /(^|\/)testing\//.test(path) || /\.test\.[cm]?[jt]sx?$/.test(path));
}

/** The esbuild options of the server bundle (metafile on: the bundle's inputs are checked). */
export function serverBuildOptions(root: string) {
  return {
    absWorkingDir: root,
    entryPoints: { main: SERVER_ENTRY, "storefront-events-thread": "src/server/features/integrations/storefront-events.thread-entry.ts" },
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
    metafile: true,
    logLevel: "warning",
  } satisfies BuildOptions;
}

export async function buildServer(root = process.cwd()): Promise<void> {
  const outdir = join(root, dirname(SERVER_BUNDLE));
  // Chunk names carry content hashes: old ones would pile up.
  rmSync(outdir, { recursive: true, force: true });
  const result = await build(serverBuildOptions(root));
  const testOnly = testOnlyInputs(result.metafile);
  if (testOnly.length > 0) {
    // No bundle at all rather than one carrying test code (npm start would rebuild and fail again).
    rmSync(outdir, { recursive: true, force: true });
    throw new Error(`The server bundle must not contain test-only code; production code imports:\n  ${testOnly.join("\n  ")}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer();
  console.log(`Built the server: ${SERVER_BUNDLE}`);
}
