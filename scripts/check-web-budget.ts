/**
 * Web budget (issue 7), run by `npm test` right after the build: the gzip size of the JS the first
 * screen loads must stay <= 120 kB and every other route chunk <= 50 kB (the lazy analytics chart
 * excepted). Prints the figures; exits 1 over budget, 2 when there is no build to measure.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { checkBudget, gzipBytes, htmlScriptFiles, type Manifest } from "./web-budget.ts";

const dist = join(process.cwd(), "dist/web");
const manifestPath = join(dist, ".vite/manifest.json");
if (!existsSync(manifestPath)) {
  console.error(`No ${manifestPath}: run \`npx vite build\` first (vite.config.ts sets build.manifest).`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
const html = readFileSync(join(dist, "index.html"), "utf8");
const report = checkBudget(manifest, (file) => gzipBytes(readFileSync(join(dist, file))), htmlScriptFiles(html));

const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
console.log(`First screen: ${kb(report.firstScreen.gzipBytes)} gzip (budget ${kb(report.firstScreen.budgetBytes)})`);
for (const f of report.firstScreen.files) console.log(`  ${kb(gzipBytes(readFileSync(join(dist, f)))).padStart(9)}  ${f}`);
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
if (report.overBudget.length > 0) {
  console.error(`OVER BUDGET: ${report.overBudget.join(", ")}`);
  process.exit(1);
}
console.log("Web budget: OK");
