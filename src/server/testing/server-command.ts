/**
 * Where the production server comes from and how tests, benchmarks and the load/fault runners start
 * it as one process. scripts/build-server.ts bundles SERVER_ENTRY into SERVER_BUNDLE (esbuild,
 * docs/decisions/0005) and takes both paths from here: scripts may import src, never the reverse.
 */
export const SERVER_ENTRY = "src/server/main.ts";
export const SERVER_BUNDLE = "dist/server/main.js";

/**
 * Node's options for the server process, wherever it is started: `npm start` (package.json), the
 * container (Dockerfile) and every test, benchmark and load run (serverCommand); cluster workers
 * inherit them. A 1 GB old space: V8 lets a heap grow to 4 times its live size between full
 * collections once the limit is 2 GB or more (the default on most machines), and only 1.6 times
 * below 1 GB. The server's live heap is 40–80 MB, so its RSS peaked at 280–400 MB of garbage under
 * load; with this limit it peaks near 200 MB for the same throughput (decision 0015).
 * server-command.test.ts keeps the two launchers that cannot import this
 * in step.
 */
export const SERVER_NODE_OPTIONS = ["--max-old-space-size=1024"] as const;

/**
 * How to run the server as ONE process, so its pid is the server's: from source
 * (`node --import tsx`, for tests that run before any build) or the production bundle
 * (`node dist/server/main.js`, what `npm start` runs; for load, fault and benchmark runs). Never
 * through the tsx CLI: it is a launcher that spawns node as a child, so a kill -9 aimed at it
 * would leave the real server running as an orphan and the crash would never happen.
 */
export function serverCommand(from: "source" | "build"): [string, ...string[]] {
  return from === "build" ? [process.execPath, ...SERVER_NODE_OPTIONS, SERVER_BUNDLE] : [process.execPath, ...SERVER_NODE_OPTIONS, "--import", "tsx", SERVER_ENTRY];
}
