import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * `npm test`: typecheck, lint, unit + API tests (SQLite, and PostgreSQL when TEST_DATABASE_URL is
 * set), a production build, then the browser tests. Prints one summary line
 * "tests: N passed, N failed" and exits non-zero when anything failed.
 */
const root = process.cwd();
const resultsDir = join(root, "test-results");
mkdirSync(resultsDir, { recursive: true });
const bin = (name: string) => join(root, "node_modules/.bin", name);

let passed = 0;
let failed = 0;
const failures: string[] = [];

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const ok = result.status === 0;
  if (!ok) failures.push(label);
  return ok;
}

function step(label: string, command: string, args: string[]): void {
  // Typecheck, lint and build count as one check each.
  if (run(label, command, args)) passed += 1;
  else failed += 1;
}

function countVitest(file: string): void {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8")) as { numPassedTests: number; numFailedTests: number; numFailedTestSuites: number };
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numFailedTests === 0 ? report.numFailedTestSuites : 0);
}

function countPlaywright(file: string): void {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number } };
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
}

function findChromium(): string | null {
  const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean) as string[];
  return candidates.find((p) => existsSync(p)) ?? null;
}

step("typecheck", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]);
step("lint", bin("eslint"), ["."]);
// Issue 19: one code style (Prettier, 200-character lines: .prettierrc.json).
step("format", bin("prettier"), ["--check", "."]);
// Issue 19: the layers of ARCHITECTURE.md (no cycles, imports downwards, no web file over 300 lines).
step("structure", bin("tsx"), [join(root, "scripts/check-structure.ts")]);

const vitestJson = join(resultsDir, "vitest.json");
rmSync(vitestJson, { force: true });
const unitOk = run("unit and API tests", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);
countVitest(vitestJson);
if (!unitOk && !existsSync(vitestJson)) failed += 1;

step("build", process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"]);
// The production server bundle the browser tests run against (`npm start` runs it too).
step("server build", bin("tsx"), [join(root, "scripts/build-server.ts")]);
// Issue 7: first-screen JS <= 120 kB gzip, other route chunks <= 50 kB (the budgets live in check-web-budget.ts).
step("web budget", bin("tsx"), [join(root, "scripts/check-web-budget.ts")]);

const chromium = findChromium();
if (!chromium) {
  const line = "!!! NO CHROMIUM FOUND (/usr/bin/chromium or CHROME_PATH): the browser tests were SKIPPED. Install it: apt-get install -y chromium";
  console.log(`\n${"!".repeat(line.length)}\n${line}\n${"!".repeat(line.length)}`);
  if (process.env.CI === "true") {
    failures.push("browser tests (no Chromium)");
    failed += 1;
  }
} else {
  const e2eJson = join(resultsDir, "e2e.json");
  rmSync(e2eJson, { force: true });
  const e2eOk = run("browser tests", bin("playwright"), ["test"], { CHROME_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson });
  countPlaywright(e2eJson);
  if (!e2eOk && !existsSync(e2eJson)) failed += 1;
}

console.log(`\n${failures.length ? `Failed: ${failures.join(", ")}` : "All checks passed."}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || failures.length > 0 ? 1 : 0);
