import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";
import { serverBuildOptions, testOnlyInputs } from "./build-server.ts";

const metafileOf = (paths: string[]): Metafile => ({
  inputs: Object.fromEntries(paths.map((path) => [path, { bytes: 1, imports: [] }])),
  outputs: {},
});

describe("testOnlyInputs", () => {
  it("names test files and anything in a testing/ folder, nothing else", () => {
    const metafile = metafileOf([
      "src/server/main.ts",
      "src/server/testing/test-app.ts",
      "src/server/vendors/testing/fixtures.ts",
      "src/server/app.test.ts",
      "src/server/auth/auth-sweep.test.tsx",
      "src/server/http/rate-limits.queries.ts",
      "src/server/debug/test-error.ts",
      "src/contract/testing-notes.ts",
    ]);
    expect(testOnlyInputs(metafile)).toEqual(["src/server/testing/test-app.ts", "src/server/vendors/testing/fixtures.ts", "src/server/app.test.ts", "src/server/auth/auth-sweep.test.tsx"]);
  });

  it("finds none in the real server bundle", async () => {
    const result = await build({ ...serverBuildOptions(process.cwd()), write: false, logLevel: "silent" });
    expect(Object.keys(result.metafile.inputs)).toContain("src/server/main.ts");
    expect(testOnlyInputs(result.metafile)).toEqual([]);
  });
});
