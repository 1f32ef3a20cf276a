import { gzipSync } from "node:zlib";

/** Issue 7 budgets, gzip bytes (kB = 1000 bytes, as the figures are). */
export const FIRST_SCREEN_BUDGET_BYTES = 120_000;
export const ROUTE_CHUNK_BUDGET_BYTES = 50_000;
/**
 * Clerk's sign-in (issue 24): the lazy chunk src/web/app/clerk-auth-gate.tsx and what it imports
 * statically — Clerk's JS and UI core bundled from npm — loaded only under AUTH_PROVIDER=clerk.
 * Measured at 390 kB gzip with @clerk/clerk-js 6.40 and @clerk/ui 1.34 (their no-remote-code builds).
 */
export const CLERK_SIGN_IN_BUDGET_BYTES = 420_000;
/**
 * The signed-in start (issue 23): all the JS a signed-in admin downloads to see the dashboard (the
 * entry, the router, the layout and the dashboard with everything Vite preloads beside them), at most
 * 120 kB gzip, enforced. React 19 (react-dom ~69 kB) and TanStack Query (~12 kB) are most of it; the
 * panel uses React Router's declarative router (~15 kB) rather than its data router (~33 kB;
 * src/web/app/navigation.tsx). What a signed-in admin needs only on an action stays out of it: the
 * user menu, drawer and palette, 'Confirm it's you' with the passkey prompt (app/step-up-host.tsx)
 * and the two-step dialogs load on first use, and the contract is bundled lean
 * (scripts/vite-lean-contract.ts). Figures in docs/performance.md "Web".
 */
export const SIGNED_IN_START_TARGET_BYTES = 120_000;
export const SIGNED_IN_START_BUDGET_BYTES = 120_000;
/** The modules a signed-in admin's first screen loads beside the entry, whichever chunk holds them. */
export const SIGNED_IN_START_MODULES = [/(^|\/)src\/web\/routed-app\.tsx$/, /(^|\/)src\/web\/app\/layout\.tsx$/, /(^|\/)src\/web\/features\/dashboard\/dashboard-page\.tsx$/];

/** The module that starts the Clerk chunk; the only importer of any @clerk package. */
export const CLERK_ENTRY = /(^|\/)app\/clerk-auth-gate\.tsx$/;
/** Vite names a chunk after its module, and leaves `src` out when the chunk has no facade module. */
const CLERK_CHUNK_NAME = "clerk-auth-gate";
/** A bundled module (as scripts/vite-chunk-modules.ts names them) that is Clerk's. */
export const CLERK_MODULE = /(^|\/)node_modules\/@clerk\//;

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
  /** Issue 23: the entry plus the router, layout and dashboard chunks and their static imports (null without chunk-modules). */
  signedInStart: { files: string[]; gzipBytes: number; budgetBytes: number; targetBytes: number } | null;
  /** Clerk's sign-in chunk and its static imports (null when the build has no Clerk entry). */
  clerk: { files: string[]; gzipBytes: number; budgetBytes: number } | null;
  chunks: ChunkFigure[];
  overBudget: string[];
  /** Chunks a deployment on the built-in provider may load that hold a Clerk module (must be none). */
  clerkInLocalMode: Array<{ file: string; modules: string[] }>;
}

/** Which modules each JS chunk holds: dist/web/.vite/chunk-modules.json (scripts/vite-chunk-modules.ts). */
export type ChunkModules = Record<string, string[]>;

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
 * Everything reachable from `keys` through static and dynamic imports, never entering `stop`
 * chunks: with the Clerk entry as the stop, all a deployment on the built-in provider can load.
 */
export function fullClosure(manifest: Manifest, keys: string[], stop: Set<string> = new Set()): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || stop.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    seen.add(key);
    for (const k of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(k);
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
export function checkBudget(manifest: Manifest, gzipSizeOf: (file: string) => number, htmlScripts: string[] = [], chunkModules?: ChunkModules): BudgetReport {
  const entryKeys = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
  if (entryKeys.length === 0) throw new Error("the manifest has no entry chunk");
  const firstKeys = staticClosure(manifest, entryKeys);
  const firstFiles = new Set([...firstKeys].map((k) => manifest[k]!.file).filter((f) => f.endsWith(".js")));
  for (const f of htmlScripts) if (f.endsWith(".js")) firstFiles.add(f);

  // Clerk (issue 24): what the built-in provider's deployment can load never enters the Clerk entry.
  // Of the rest, the Clerk entry's static closure is the sign-in's own budget line; what Clerk's UI
  // loads on demand beyond it (one chunk per component, wallet SDKs) only ever loads under Clerk.
  const clerkKeys = Object.keys(manifest).filter((k) => {
    const chunk = manifest[k]!;
    if (!chunk.isDynamicEntry) return false;
    return CLERK_ENTRY.test(chunk.src ?? "") || chunk.name === CLERK_CHUNK_NAME || (chunkModules?.[chunk.file] ?? []).some((m) => CLERK_ENTRY.test(m));
  });
  const localKeys = fullClosure(manifest, entryKeys, new Set(clerkKeys));
  const clerkStatic = new Set([...staticClosure(manifest, clerkKeys)].filter((k) => !localKeys.has(k)));
  const clerkLazy = new Set([...fullClosure(manifest, clerkKeys)].filter((k) => !localKeys.has(k) && !clerkStatic.has(k)));
  const clerkInLocalMode: BudgetReport["clerkInLocalMode"] = [];
  if (chunkModules) {
    for (const k of localKeys) {
      const file = manifest[k]!.file;
      const modules = file.endsWith(".js") ? chunkModules[file] : undefined;
      if (file.endsWith(".js") && !modules) throw new Error(`chunk-modules has no entry for ${file}: build again`);
      const clerk = (modules ?? []).filter((m) => CLERK_MODULE.test(m));
      if (clerk.length > 0) clerkInLocalMode.push({ file, modules: clerk });
    }
  }

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
    const exempt = clerkStatic.has(key)
      ? "Clerk sign-in (its own line)"
      : clerkLazy.has(key)
        ? "Clerk's UI on demand (AUTH_PROVIDER=clerk only)"
        : chartOnly.has(key)
          ? `${[...new Set(chartsOf.get(key))].sort().join(", ")} (lazy)`
          : null;
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
  let signedInStart: BudgetReport["signedInStart"] = null;
  if (chunkModules) {
    const found = SIGNED_IN_START_MODULES.map((module) => Object.keys(manifest).find((k) => (chunkModules[manifest[k]!.file] ?? []).some((m) => module.test(m))));
    // A build of the app (it has the router's module) has all three: a renamed one fails here.
    const missing = SIGNED_IN_START_MODULES.filter((_, i) => !found[i]);
    if (found[0] && missing.length > 0) throw new Error(`no chunk holds ${missing.join(", ")}: the signed-in start cannot be measured`);
    const starts = found.filter((k): k is string => k !== undefined);
    if (starts.length > 0) {
      const startFiles = [...staticClosure(manifest, [...entryKeys, ...starts])].map((k) => manifest[k]!.file).filter((f) => f.endsWith(".js"));
      for (const f of htmlScripts) if (f.endsWith(".js") && !startFiles.includes(f)) startFiles.push(f);
      startFiles.sort();
      signedInStart = {
        files: startFiles,
        gzipBytes: startFiles.reduce((sum, f) => sum + gzipSizeOf(f), 0),
        budgetBytes: SIGNED_IN_START_BUDGET_BYTES,
        targetBytes: SIGNED_IN_START_TARGET_BYTES,
      };
      if (signedInStart.gzipBytes > signedInStart.budgetBytes) overBudget.unshift("signed-in start");
    }
  }
  let clerk: BudgetReport["clerk"] = null;
  if (clerkKeys.length > 0) {
    const clerkFiles = [...clerkStatic]
      .map((k) => manifest[k]!.file)
      .filter((f) => f.endsWith(".js"))
      .sort();
    clerk = { files: clerkFiles, gzipBytes: clerkFiles.reduce((sum, f) => sum + gzipSizeOf(f), 0), budgetBytes: CLERK_SIGN_IN_BUDGET_BYTES };
    if (clerk.gzipBytes > clerk.budgetBytes) overBudget.push("Clerk sign-in");
  }
  return { firstScreen: { files, gzipBytes, budgetBytes: FIRST_SCREEN_BUDGET_BYTES }, signedInStart, clerk, chunks, overBudget, clerkInLocalMode };
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
