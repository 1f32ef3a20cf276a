import { gzipSync } from "node:zlib";

/** Issue 7 budgets, gzip bytes (kB = 1000 bytes, as the figures are). */
export const FIRST_SCREEN_BUDGET_BYTES = 120_000;
export const ROUTE_CHUNK_BUDGET_BYTES = 50_000;

/** The parts of Vite's build manifest (build.manifest) used here. */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface ChunkFigure {
  file: string;
  /** The source module that starts the chunk, when it is an entry. */
  src: string | null;
  gzipBytes: number;
  budgetBytes: number | null;
  exempt: string | null;
}

export interface BudgetReport {
  firstScreen: { files: string[]; gzipBytes: number; budgetBytes: number };
  chunks: ChunkFigure[];
  overBudget: string[];
}

/** Static-import closure of the given manifest keys: what the browser loads (and Vite preloads) with them. */
export function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    seen.add(key);
    for (const k of chunk.imports ?? []) visit(k);
  };
  keys.forEach(visit);
  return seen;
}

/**
 * The first screen is the HTML entry plus everything it imports statically (Vite emits those as
 * <link rel="modulepreload">, and `htmlScripts` from dist/web/index.html are added in case a
 * plugin injects more). Every other JS chunk is a later route's and has its own budget, except
 * the chunks only the analytics chart pulls in (Recharts is big, lazy and allowed to be).
 */
export function checkBudget(manifest: Manifest, gzipSizeOf: (file: string) => number, htmlScripts: string[] = []): BudgetReport {
  const entryKeys = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
  if (entryKeys.length === 0) throw new Error("the manifest has no entry chunk");
  const firstKeys = staticClosure(manifest, entryKeys);
  const firstFiles = new Set([...firstKeys].map((k) => manifest[k]!.file).filter((f) => f.endsWith(".js")));
  for (const f of htmlScripts) if (f.endsWith(".js")) firstFiles.add(f);

  // The lazily loaded charts of the screens that draw them (analytics, financials): they and the
  // chart library they share load only there.
  const chartKeys = Object.keys(manifest).filter((k) => manifest[k]!.isDynamicEntry && /features\/[^/]+\/[^/]*chart\.tsx$/i.test(manifest[k]!.src ?? k));
  const chartOnly = new Set<string>();
  const others = Object.keys(manifest).filter((k) => !manifest[k]!.isEntry && !chartKeys.includes(k));
  const reachableWithoutChart = staticClosure(
    manifest,
    others.filter((k) => manifest[k]!.isDynamicEntry),
  );
  for (const k of staticClosure(manifest, chartKeys)) if (!reachableWithoutChart.has(k) && !firstKeys.has(k)) chartOnly.add(k);
  // Which screens' charts load each exempt chunk, for the report ("analytics chart, financials chart").
  const chartsOf = new Map<string, string[]>();
  for (const chartKey of chartKeys) {
    const screen = /features\/([^/]+)\//.exec(manifest[chartKey]!.src ?? chartKey)?.[1] ?? "chart";
    for (const k of staticClosure(manifest, [chartKey])) chartsOf.set(k, [...(chartsOf.get(k) ?? []), `${screen} chart`]);
  }

  const chunks: ChunkFigure[] = [];
  const overBudget: string[] = [];
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.file.endsWith(".js") || firstFiles.has(chunk.file)) continue;
    const exempt = chartOnly.has(key) ? `${[...new Set(chartsOf.get(key))].sort().join(", ")} (lazy)` : null;
    const figure: ChunkFigure = {
      file: chunk.file,
      src: chunk.src ?? null,
      gzipBytes: gzipSizeOf(chunk.file),
      budgetBytes: exempt ? null : ROUTE_CHUNK_BUDGET_BYTES,
      exempt,
    };
    chunks.push(figure);
    if (figure.budgetBytes !== null && figure.gzipBytes > figure.budgetBytes) overBudget.push(`${figure.file} (${figure.src ?? "shared"})`);
  }
  chunks.sort((a, b) => b.gzipBytes - a.gzipBytes);
  const files = [...firstFiles].sort();
  const gzipBytes = files.reduce((sum, f) => sum + gzipSizeOf(f), 0);
  if (gzipBytes > FIRST_SCREEN_BUDGET_BYTES) overBudget.unshift("first screen");
  return { firstScreen: { files, gzipBytes, budgetBytes: FIRST_SCREEN_BUDGET_BYTES }, chunks, overBudget };
}

/** gzip -9 is what a static server or CDN would typically send. */
export function gzipBytes(content: Buffer): number {
  return gzipSync(content, { level: 9 }).length;
}

/** Script and modulepreload URLs of the built index.html, relative to its folder. */
export function htmlScriptFiles(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/?([^"]+\.js)"/g)) out.push(m[1]!);
  return out;
}
