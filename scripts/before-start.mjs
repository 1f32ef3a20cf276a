// `npm start` and the operator's commands (`npm run db:migrate`, …) run this first. Plain JavaScript,
// as a production install (`npm ci --omit=dev`, docs/operations.md) has neither tsx nor the build
// tools: there it only checks that the server bundle is present and the build that is there runs.
// A full install brings the build up to date first (scripts/ensure-build.ts; `server`: the server
// bundle alone, for the commands).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";

const only = process.argv[2] === "server" ? ["server"] : [];
if (existsSync("node_modules/tsx/package.json")) {
  const build = spawnSync(process.execPath, ["--import", "tsx", "scripts/ensure-build.ts", ...only], { stdio: "inherit" });
  process.exit(build.status ?? 1);
}
if (!existsSync("dist/server/main.js")) {
  process.stderr.write(
    "dist/server/main.js is missing and this install has no build tools (npm ci --omit=dev). Build first (npm ci && npm run build), then install for production (npm ci --omit=dev) keeping dist/.\n",
  );
  process.exit(1);
}
