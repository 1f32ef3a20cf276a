/**
 * Web budget (issue 7), run by `npm test` right after the build: the gzip size of the JS the first
 * screen loads must stay <= 120 kB and every other route chunk <= 50 kB (the lazy analytics chart
 * excepted); Clerk's sign-in chunk has its own line, and no chunk a deployment on the built-in
 * provider can load may hold a Clerk module (issue 24); the signed-in start (issue 23: all the JS
 * a signed-in admin downloads to see the dashboard) has its own budget. Prints the figures; exits 1 over budget or
 * on a Clerk module in local mode, 2 when there is no build to measure. `WEB_DIST` measures
 * another build folder than dist/web.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { CHUNK_MODULES_FILE } from "./vite-chunk-modules.ts";
import { type ChunkModules, checkBudget, gzipBytes, htmlScriptFiles, type Manifest } from "./web-budget.ts";

const dist = resolve(process.cwd(), process.env.WEB_DIST ?? "dist/web");
const manifestPath = join(dist, ".vite/manifest.json");
const chunkModulesPath = join(dist, CHUNK_MODULES_FILE);
for (const path of [manifestPath, chunkModulesPath]) {
  if (!existsSync(path)) {
    console.error(`No ${path}: run \`npx vite build\` first (vite.config.ts sets build.manifest and the chunk-modules plugin).`);
    process.exit(2);
  }
}
const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
const chunkModules = JSON.parse(readFileSync(chunkModulesPath, "utf8")) as ChunkModules;
const html = readFileSync(join(dist, "index.html"), "utf8");
const report = checkBudget(manifest, (file) => gzipBytes(readFileSync(join(dist, file))), htmlScriptFiles(html), chunkModules);

const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
console.log(`First screen: ${kb(report.firstScreen.gzipBytes)} gzip (budget ${kb(report.firstScreen.budgetBytes)})`);
for (const f of report.firstScreen.files) console.log(`  ${kb(gzipBytes(readFileSync(join(dist, f)))).padStart(9)}  ${f}`);
if (report.signedInStart) {
  const start = report.signedInStart;
  const target = start.gzipBytes <= start.targetBytes ? "met" : `not met by ${kb(start.gzipBytes - start.targetBytes)}`;
  console.log(
    `Signed-in start (the dashboard, cold cache): ${kb(start.gzipBytes)} gzip over ${start.files.length} files (budget ${kb(start.budgetBytes)}; issue 23's target ${kb(start.targetBytes)}: ${target})`,
  );
  for (const f of start.files) console.log(`  ${kb(gzipBytes(readFileSync(join(dist, f)))).padStart(9)}  ${f}`);
}
if (report.clerk) {
  console.log(`Clerk sign-in (AUTH_PROVIDER=clerk only, lazy): ${kb(report.clerk.gzipBytes)} gzip (budget ${kb(report.clerk.budgetBytes)})`);
  for (const f of report.clerk.files) console.log(`  ${kb(gzipBytes(readFileSync(join(dist, f)))).padStart(9)}  ${f}`);
}
console.log("Other chunks (loaded on demand):");
for (const c of report.chunks) {
  const budget = c.budgetBytes === null ? `exempt: ${c.exempt}` : `budget ${kb(c.budgetBytes)}`;
  console.log(`  ${kb(c.gzipBytes).padStart(9)}  ${c.file}  ${c.src ?? "(shared)"}  [${budget}]`);
}
// The contract's zod is inert in the web build (decision 0007); real zod in a chunk means some
// web code imports zod itself, which the budget above may not yet show but every screen would pay.
const withZod = readdirSync(join(dist, "assets")).filter((f) => f.endsWith(".js") && /ZodError|\$ZodType/.test(readFileSync(join(dist, "assets", f), "utf8")));
if (withZod.length > 0) {
  console.error(`zod is in the web bundle (${withZod.join(", ")}): the web must use definitions for paths and types only`);
  process.exit(1);
}
if (report.clerkInLocalMode.length > 0) {
  for (const c of report.clerkInLocalMode) console.error(`Clerk module in a chunk of the built-in provider: ${c.file}: ${c.modules.slice(0, 5).join(", ")}${c.modules.length > 5 ? ", …" : ""}`);
  console.error("A deployment with AUTH_PROVIDER=local must not download Clerk: import @clerk only from src/web/app/clerk-auth-gate.tsx");
  process.exit(1);
}
console.log("No Clerk module in any chunk of the built-in provider.");
if (report.overBudget.length > 0) {
  console.error(`OVER BUDGET: ${report.overBudget.join(", ")}`);
  process.exit(1);
}
console.log("Web budget: OK");
