import { lintConfig, lintFromString, loadConfig, type NormalizedProblem } from "@redocly/openapi-core";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type TestContext, createTestContext } from "../../testing/test-app.ts";

const REDOCLY_CONFIG = join(process.cwd(), "redocly.yaml");
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

type LintProblem = Pick<NormalizedProblem, "ruleId" | "severity" | "message" | "location">;

interface KeptWarning {
  rule: string;
  at: string[];
  reason: string;
}

/** Where a problem is, as redocly.yaml names it: "METHOD /path", "/path", or the JSON pointer. */
function placeOf(problem: LintProblem): string {
  const pointer = problem.location[0]?.pointer ?? "";
  const [top, path, method] = pointer
    .replace(/^#\//, "")
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
  if (top !== "paths" || !path) return pointer;
  return method && HTTP_METHODS.has(method) ? `${method.toUpperCase()} ${path}` : path;
}

/**
 * Lints a document with Redocly's own engine (`@redocly/openapi-core`, the one its CLI runs), in
 * this process, with redocly.yaml; the configuration's own problems count as errors, as the CLI's
 * `--lint-config error` does.
 */
async function redoclyLint(document: string): Promise<{ problems: LintProblem[] }> {
  const configProblems: LintProblem[] = [];
  const config = await loadConfig({
    configPath: REDOCLY_CONFIG,
    processRawConfig: async ({ document: configDocument, resolvedRefMap, config: loaded }) => {
      configProblems.push(...(await lintConfig({ document: configDocument, resolvedRefMap, config: loaded, severity: "error" })));
    },
  });
  const problems = await lintFromString({ source: document, absoluteRef: join(process.cwd(), "openapi.json"), config });
  return { problems: [...configProblems, ...problems] };
}

describe("redocly lint of the document at /api/openapi.json (redocly.yaml, recommended rules)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext("sqlite");
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("reports no error, and only the warnings redocly.yaml keeps with a reason, each of them still reported", async () => {
    const res = await ctx.request("/api/openapi.json");
    expect(res.status).toBe(200);
    const { problems } = await redoclyLint(await res.text());
    const describeProblem = (p: LintProblem) => `${p.ruleId} at ${placeOf(p)}: ${p.message}`;
    expect(problems.filter((p) => p.severity === "error").map(describeProblem)).toEqual([]);

    const config = parse(await readFile(REDOCLY_CONFIG, "utf8")) as { extends: string[]; "x-kept-warnings": KeptWarning[] };
    expect(config.extends).toEqual(["recommended"]);
    const kept = config["x-kept-warnings"];
    for (const entry of kept) expect(entry.reason?.trim().length ?? 0, `${entry.rule}: the reason it is kept`).toBeGreaterThan(20);
    const keptPlaces = new Set(kept.flatMap((entry) => entry.at.map((place) => `${entry.rule} at ${place}`)));
    const warnings = problems.filter((p) => p.severity === "warn");
    const reported = new Set(warnings.map((p) => `${p.ruleId} at ${placeOf(p)}`));

    expect(
      warnings.filter((p) => !keptPlaces.has(`${p.ruleId} at ${placeOf(p)}`)).map(describeProblem),
      "warnings redocly.yaml does not keep: fix the document (openapi-document.ts) or list them there with the reason",
    ).toEqual([]);
    expect(
      [...keptPlaces].filter((place) => !reported.has(place)),
      "kept in redocly.yaml but no longer reported: remove them there",
    ).toEqual([]);
  }, 120_000);
});
