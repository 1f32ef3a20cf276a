import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildServer, SERVER_BUNDLE } from "./build-server.ts";

/**
 * `npm start` (and the benchmark, load and fault suites) build only what is missing or older than
 * its sources: the web app (dist/web) and the bundled server (dist/server/main.js). A fresh clone
 * therefore needs nothing but `npm ci && npm start`.
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


export async function ensureBuild(): Promise<void> {
  if (isStale(WEB)) {
    console.log(`Building the ${WEB.name} (${WEB.output} is missing or older than its sources)...`);
    execFileSync(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  }
  if (isStale(SERVER)) {
    console.log(`Building the ${SERVER.name} (${SERVER.output} is missing or older than its sources)...`);
    await buildServer(root);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await ensureBuild();
