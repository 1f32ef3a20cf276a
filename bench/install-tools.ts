import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `npm run bench:web` needs Lighthouse, which nothing else uses: it lives in bench/package.json so
 * the project's own install stays lean (about 150 packages and 180 MB less), and is installed here
 * (`npm ci` in bench/) when it is missing or older than bench/package-lock.json.
 */
const BENCH = fileURLToPath(new URL(".", import.meta.url));
/** npm writes it on every install: its age is the install's. */
const INSTALLED = join(BENCH, "node_modules/.package-lock.json");
const LOCK = join(BENCH, "package-lock.json");

if (!existsSync(INSTALLED) || statSync(INSTALLED).mtimeMs < statSync(LOCK).mtimeMs) {
  console.log("Installing the benchmark's own tools (bench/package.json: Lighthouse)...");
  const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: BENCH, stdio: "inherit" });
  if (npm.status !== 0) {
    console.error(`bench:web: installing bench/package.json failed (npm exit ${String(npm.status ?? npm.signal)}).`);
    process.exit(1);
  }
}
