import { build, type BuildResult } from "esbuild";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { serverBuildOptions } from "./build-server.ts";

/**
 * `npm ci --omit=dev` installs package.json's `dependencies` and their own: they must be exactly the
 * packages the server bundle (dist/server) loads, so a production install carries nothing the
 * browser bundle already holds (React, Radix, charts: devDependencies, bundled into dist/web by
 * Vite) and misses nothing the server needs. The server bundle keeps npm packages external
 * (scripts/build-server.ts): they are its imports, plus the ones it loads by name at run time
 * through createRequire (jsdom, lazily; swagger-ui-dist's files; esbuild may rename createRequire).
 */
function packageOf(specifier: string): string {
  return specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
}

export function packagesLoaded(result: BuildResult<{ metafile: true; write: false }>): string[] {
  const names = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) if (imported.external && !imported.path.startsWith("node:")) names.add(packageOf(imported.path));
  }
  for (const file of result.outputFiles) {
    for (const match of file.text.matchAll(/createRequire\d*\(import\.meta\.url\)\(\s*"([^"]+)"\s*\)|\.resolve\(\s*"([^".][^"]*)"\s*\)/g)) {
      const specifier = match[1] ?? match[2];
      if (specifier && !specifier.startsWith("node:")) names.add(packageOf(specifier));
    }
  }
  return [...names].sort();
}

describe("the production install", () => {
  it("is exactly the packages the server bundle loads", async () => {
    const result = await build({ ...serverBuildOptions(process.cwd()), write: false, logLevel: "silent" });
    const loaded = packagesLoaded(result);
    expect(loaded).toEqual(expect.arrayContaining(["hono", "kysely", "better-sqlite3", "jsdom", "swagger-ui-dist"]));
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies).sort()).toEqual(loaded);
  });
});
