import type { Plugin } from "vite";

/** Where the build writes which modules each JS chunk holds (beside Vite's manifest). */
export const CHUNK_MODULES_FILE = ".vite/chunk-modules.json";

/**
 * The module a bundled id stands for: `node_modules/<package>/<path>` for a package's file (scoped
 * packages keep their scope, the last node_modules wins for nested ones), else the path from the
 * project root; Vite's virtual modules keep their id.
 */
export function moduleName(id: string, root: string): string {
  const clean = id.replace(/^\0/, "").split("?")[0]!.replaceAll("\\", "/");
  const at = clean.lastIndexOf("/node_modules/");
  if (at >= 0) return `node_modules/${clean.slice(at + "/node_modules/".length)}`;
  const base = root.replaceAll("\\", "/").replace(/\/+$/, "");
  return clean.startsWith(`${base}/`) ? clean.slice(base.length + 1) : clean;
}

/**
 * Writes dist/web/.vite/chunk-modules.json: for every JS chunk, the modules bundled into it. The
 * web budget (scripts/check-web-budget.ts) reads it to prove that no chunk a deployment on the
 * built-in provider loads holds a Clerk module; minified code alone could not show that.
 */
export function chunkModules(root: string): Plugin {
  return {
    name: "chunk-modules",
    apply: "build",
    generateBundle(_options, bundle) {
      const modules: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        modules[output.fileName] = Object.keys(output.modules)
          .map((id) => moduleName(id, root))
          .sort();
      }
      this.emitFile({ type: "asset", fileName: CHUNK_MODULES_FILE, source: `${JSON.stringify(modules, null, 1)}\n` });
    },
  };
}
