import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// Only paths here: the build tools (vite, esbuild) are dev dependencies, loaded only when a build runs.
import { SERVER_BUNDLE } from "../src/server/testing/server-command.ts";

/**
 * `npm start` (and the benchmark, load and fault suites) build only what is missing or older than
 * its sources: the web app (dist/web) and the bundled server (dist/server/main.js). A fresh clone
 * therefore needs nothing but `npm ci && npm start`.
 *
 * A production install (`npm ci --omit=dev`, the Docker image) has no build tools: there the build
 * that is present is started as it is (sources newer than it only earn a warning), and a missing
 * server bundle stops the start with what to do. Nothing here needs a dev dependency unless a
 * build actually runs.
 */
const root = process.cwd();

interface BuildTarget {
  name: string;
  output: string;
  sources: string[];
}

const WEB: BuildTarget = { name: "web app", output: "dist/web/index.html", sources: ["src/web", "src/contract", "vite.config.ts", "package-lock.json"] };
const SERVER: BuildTarget = { name: "server", output: SERVER_BUNDLE, sources: ["src/server", "src/contract", "scripts/build-server.ts", "package-lock.json"] };

function newestMtime(path: string): number {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(full)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function isStale(target: BuildTarget): boolean {
  const output = join(root, target.output);
  if (!existsSync(output)) return true;
  const builtAt = statSync(output).mtimeMs;
  return target.sources.some((s) => newestMtime(s) > builtAt);
}

/** Whether this install can build (a full `npm ci`), or only run (`npm ci --omit=dev`). */
export function buildToolsInstalled(dir = root): boolean {
  return existsSync(join(dir, "node_modules/vite/bin/vite.js")) && existsSync(join(dir, "node_modules/esbuild/package.json"));
}

/** `only: "server"`: the server bundle alone (the operator's commands need no web app). */
export async function ensureBuild(only?: "server"): Promise<void> {
  const canBuild = buildToolsInstalled();
  for (const target of only === "server" ? [SERVER] : [WEB, SERVER]) {
    if (!isStale(target)) continue;
    const present = existsSync(join(root, target.output));
    if (!canBuild) {
      if (present) {
        console.warn(`The ${target.name} (${target.output}) is older than its sources, and this install has no build tools (npm ci --omit=dev): starting it as built.`);
        continue;
      }
      if (target === WEB) {
        console.warn(`The ${target.name} is not built (${target.output} missing) and this install has no build tools: only the API will be served.`);
        continue;
      }
      throw new Error(
        `${target.output} is missing and this install has no build tools (npm ci --omit=dev). Build first (npm ci && npm run build), then install for production (npm ci --omit=dev) keeping dist/.`,
      );
    }
    console.log(`Building the ${target.name} (${target.output} is missing or older than its sources)...`);
    if (target === WEB) {
      execFileSync(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
    } else {
      const { buildServer } = await import("./build-server.ts");
      await buildServer(root);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const only = process.argv[2] === "server" ? "server" : undefined;
  await ensureBuild(only).catch((err: unknown) => {
    console.error(`npm ${only ? "run" : "start"}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
