/**
 * Where the production server comes from and how tests, benchmarks and the load/fault runners start
 * it as one process. scripts/build-server.ts bundles SERVER_ENTRY into SERVER_BUNDLE (esbuild,
 * docs/decisions/0005) and takes both paths from here: scripts may import src, never the reverse.
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
  return from === "build" ? [process.execPath, SERVER_BUNDLE] : [process.execPath, "--import", "tsx", SERVER_ENTRY];
}
