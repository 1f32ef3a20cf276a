import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { cruise, type ICruiseResult, type IModule } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { existsIn, repositorySources, stalePathsIn } from "./comment-paths.ts";
import { moduleOf, stronglyConnected } from "./structure-graph.ts";

/**
 * `npm run check:structure` (part of `npm test`): the layers of ARCHITECTURE.md hold.
 * 1. dependency-cruiser with .dependency-cruiser.cjs: no import cycle between files in src/, the
 *    server's layers import downwards only, no area imports another, demo data only where used.
 * 2. No cycle between server modules (platform/<x>, domain/<x>, features/<area>, the root files).
 * 3. No web source file over 300 lines (a page is a composition of section files).
 * 4. Every repository path named in a comment exists (comment-paths.ts says what counts as one).
 * Prints every finding and exits non-zero when there is one.
 */
const WEB_FILE_MAX_LINES = 300;
const root = process.cwd();
const problems: string[] = [];

const config = (await import(join(root, ".dependency-cruiser.cjs"))).default as { forbidden: unknown[]; options: Record<string, unknown> };
const tsConfig = extractTSConfig(join(root, "tsconfig.json"));
const result = await cruise(["src"], { ...config.options, ruleSet: { forbidden: config.forbidden } } as never, undefined, { tsConfig });
const output = result.output as ICruiseResult;
for (const v of output.summary.violations) {
  const cycle = v.cycle?.length ? ` (cycle: ${v.cycle.map((c) => (typeof c === "string" ? c : c.name)).join(" → ")})` : "";
  problems.push(`${v.rule.name}: ${v.from} → ${v.to}${cycle}`);
}

const serverModules: IModule[] = output.modules.filter((m) => m.source.startsWith("src/server/") && !/\.test\.ts$|\/testing\//.test(m.source));
const edges = new Map<string, Set<string>>();
for (const m of serverModules) {
  const from = moduleOf(m.source);
  for (const d of m.dependencies) {
    if (!d.resolved.startsWith("src/server/") || /\.test\.ts$|\/testing\//.test(d.resolved)) continue;
    const to = moduleOf(d.resolved);
    if (to === from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
}
for (const component of stronglyConnected(edges)) problems.push(`module cycle: ${component.join(" ↔ ")}`);

function* webSources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* webSources(path);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}
for (const file of webSources(join(root, "src/web"))) {
  const lines = readFileSync(file, "utf8").split("\n").length;
  if (lines > WEB_FILE_MAX_LINES) problems.push(`web file over ${WEB_FILE_MAX_LINES} lines: ${relative(root, file)} (${lines})`);
}

const stale = stalePathsIn(repositorySources(root), existsIn(root));
for (const s of stale) problems.push(`stale path in a comment: ${s.file}:${s.line} names ${s.path}, which does not exist`);

console.log(`structure: ${output.summary.totalCruised} files, ${output.summary.totalDependenciesCruised} imports, ${edges.size} server modules`);
if (problems.length > 0) {
  for (const p of problems) console.log(`  ✗ ${p}`);
  console.log(`structure: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log("structure: 0 file cycles, 0 module cycles, layers respected, no web file over 300 lines, 0 stale paths in comments");
