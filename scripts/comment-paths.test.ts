import { describe, expect, it } from "vitest";
import { commentsOf, existsIn, pathExists, pathsNamed, repositorySources, stalePathsIn } from "./comment-paths.ts";

const root = process.cwd();
const exists = existsIn(root);

describe("paths named in comments", () => {
  it("finds a made-up path in a comment and names the file and line", () => {
    const source = [
      'import { x } from "./x.ts";',
      "/**",
      " * Reads the cache (platform/db/read-cache.ts) and the redactor (error-recorder/nowhere-redact.ts).",
      " */",
      "export const y = 1; // see src/server/platform/http/made-up-router.ts",
    ].join("\n");
    expect(stalePathsIn([{ file: "src/server/features/vendors/example.ts", source }], exists)).toEqual([
      { file: "src/server/features/vendors/example.ts", line: 2, path: "error-recorder/nowhere-redact.ts" },
      { file: "src/server/features/vendors/example.ts", line: 5, path: "src/server/platform/http/made-up-router.ts" },
    ]);
  });

  it("reads only comments: paths in strings, templates and regular expressions are not comments", () => {
    const source = [
      'const a = "src/made/up.ts // also/not.ts";',
      "const b = `docs/made-up.md ${a} // nor/this.ts`;",
      "const c = /https?:\\/\\/x\\/y.ts/; // docs/decisions/made-up.md",
      "const d = 4 / 2; /* bench/made-up.ts */",
    ].join("\n");
    expect(commentsOf(source, "example.ts").map((c) => c.text)).toEqual(["// docs/decisions/made-up.md", "/* bench/made-up.ts */"]);
  });

  it("takes a word with a slash and a file ending as a path, nothing else", () => {
    expect(pathsNamed("// (`platform/db/connect.ts`), docs/performance.md: and features/<area>/<area>.routes.ts")).toEqual(["platform/db/connect.ts", "docs/performance.md"]);
    expect(pathsNamed("// scripts/**/*.test.ts, https://example.com/a.js, a/b, index.ts, ./sibling.ts.")).toEqual(["./sibling.ts"]);
  });

  it("looks for a path from the repository root, the file's folders and the conventional bases", () => {
    const from = "src/server/features/vendors/vendors.service.ts";
    for (const path of ["docs/reliability.md", "src/server/app.ts", "./vendor-matches.ts", "platform/db/read-cache.ts", "error-recorder/redact.ts", "ledger/payouts.ts", "lib/api-client.ts"]) {
      expect(pathExists(path, from, exists), path).toBe(true);
    }
    expect(pathExists("swagger-ui-dist/swagger-ui.css", from, exists)).toBe(true);
    expect(pathExists("dist/server/main.js", from, exists)).toBe(true);
    expect(pathExists("financial/payout-reconcile.ts", from, exists)).toBe(false);
    expect(pathExists("http/rate-limit-sweep.ts", from, exists)).toBe(false);
  });

  it("reads the repository's sources: its own comments among them", () => {
    const sources = repositorySources(root);
    const self = sources.find((s) => s.file === "scripts/comment-paths.ts");
    expect(self).toBeDefined();
    expect(stalePathsIn([self!], exists)).toEqual([]);
    expect(sources.some((s) => s.file.startsWith("node_modules/") || s.file.startsWith("dist/"))).toBe(false);
  });
});
