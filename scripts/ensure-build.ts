import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * `npm start` builds the web app only when needed: when dist/web is missing or older than any
 * source the bundle is made from. A fresh clone therefore needs nothing but `npm ci && npm start`.
 */
const root = process.cwd();
const builtIndex = join(root, "dist/web/index.html");
const sources = ["src/web", "src/contract", "vite.config.ts", "package-lock.json"];

function newestMtime(path: string): number {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(full)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function webBuildIsStale(): boolean {
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return sources.some((s) => newestMtime(s) > builtAt);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (webBuildIsStale()) {
    console.log("Building the web app (dist/web is missing or older than its sources)...");
    execFileSync(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { stdio: "inherit" });
  }
}
