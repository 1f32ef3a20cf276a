import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type TestContext, createTestContext } from "../../testing/test-app.ts";

const REDOCLY_CONFIG = join(process.cwd(), "redocly.yaml");
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: Array<{ pointer?: string }>;
}

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

/** Runs Redocly CLI (with redocly.yaml, whose own problems count as errors) over a document file. */
async function redoclyLint(documentFile: string): Promise<{ problems: LintProblem[] }> {
  const cli = join(createRequire(import.meta.url).resolve("@redocly/cli/package.json"), "..", "bin", "cli.js");
  const args = [cli, "lint", documentFile, "--config", REDOCLY_CONFIG, "--lint-config", "error", "--format", "json"];
  // Off: its usage reports and update check (a test makes no outside calls).
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
  const { stdout } = await promisify(execFile)(process.execPath, args, { env, maxBuffer: 16 * 1024 * 1024 }).catch((failure: { stdout?: string; stderr?: string }) => {
    // It exits non-zero when it found errors; its report is still on stdout.
    if (failure.stdout?.trim().startsWith("{")) return { stdout: failure.stdout };
    throw new Error(`redocly lint did not report: ${failure.stderr ?? String(failure)}`);
  });
  return JSON.parse(stdout) as { problems: LintProblem[] };
}

describe("redocly lint of the document at /api/openapi.json (redocly.yaml, recommended rules)", () => {
  let ctx: TestContext;
  let folder: string;
  beforeAll(async () => {
    ctx = await createTestContext("sqlite");
    folder = await mkdtemp(join(tmpdir(), "hki-openapi-lint-"));
  });
  afterAll(async () => {
    await ctx.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("reports no error, and only the warnings redocly.yaml keeps with a reason, each of them still reported", async () => {
    const res = await ctx.request("/api/openapi.json");
    expect(res.status).toBe(200);
    const documentFile = join(folder, "openapi.json");
    await writeFile(documentFile, await res.text());

    const { problems } = await redoclyLint(documentFile);
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
