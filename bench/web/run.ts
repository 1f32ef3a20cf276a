/**
 * `npm run bench:web`: Lighthouse (desktop preset) on the dashboard, vendors, error logs and
 * analytics of the built app, served by the real server on the demo data, in the system Chromium
 * (/usr/bin/chromium or CHROME_PATH; a browser is never downloaded). Prints performance score,
 * LCP, TBT and CLS against issue 7's targets and writes bench/results/web-latest.json.
 *
 * The app sits behind the beta gate and a sign-in. Lighthouse only takes extra headers, so the
 * browser is started with a persistent profile (its default context is the one Lighthouse's tab
 * uses), the beta marker and a real session token are put into localStorage through Playwright,
 * and Lighthouse is told not to reset storage.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { chromium } from "playwright-core";
import { describeMachine } from "../lib/machine.ts";
import { freePort, signIn, startServer } from "../lib/server-process.ts";

const PAGES = [
  { name: "dashboard", path: "/" },
  { name: "vendors", path: "/vendors" },
  { name: "error logs", path: "/errors" },
  { name: "analytics", path: "/analytics" },
] as const;
const TARGETS = { score: 95, lcpMs: 1200, tbtMs: 150, cls: 0.05 };
const BETA_MARKER_KEY = "beta-access"; // src/web/lib/beta-marker.ts
const SESSION_STORAGE_KEY = "hki-admin-session"; // src/web/lib/session.ts
const OUT = "bench/results/web-latest.json";

const chromePath = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p): p is string => !!p && existsSync(p));
if (!chromePath) {
  console.error("bench:web needs Chromium (/usr/bin/chromium or CHROME_PATH); none found, nothing measured.");
  process.exit(2);
}

interface PageResult {
  name: string;
  path: string;
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  pass: boolean;
}

async function main(): Promise<void> {
  console.log("[bench:web] building the web app (vite build)");
  execFileSync(process.execPath, ["node_modules/vite/bin/vite.js", "build", "--logLevel", "warn"], { stdio: "inherit" });

  const work = mkdtempSync(join(tmpdir(), "hki-bench-web-"));
  const server = await startServer(`sqlite:${join(work, "demo.sqlite")}`, { readyTimeoutMs: 180_000, env: { SEED_DEMO: "true" } });
  const port = await freePort();
  const context = await chromium.launchPersistentContext(join(work, "profile"), {
    executablePath: chromePath,
    headless: true,
    args: [`--remote-debugging-port=${port}`, "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
  });
  const results: PageResult[] = [];
  try {
    const token = await signIn(server.baseUrl);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.baseUrl}/`);
    await page.evaluate(
      ([betaKey, sessionKey, sessionToken]) => {
        localStorage.setItem(betaKey!, JSON.stringify({ timestamp: Date.now() }));
        localStorage.setItem(sessionKey!, sessionToken!);
      },
      [BETA_MARKER_KEY, SESSION_STORAGE_KEY, token],
    );
    for (const p of PAGES) {
      const runner = await lighthouse(
        `${server.baseUrl}${p.path}`,
        { port, output: "json", logLevel: "error", onlyCategories: ["performance"], disableStorageReset: true },
        desktopConfig,
      );
      const lhr = runner?.lhr;
      if (!lhr) throw new Error(`Lighthouse returned nothing for ${p.path}`);
      if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${p.path}: ${lhr.runtimeError.message}`);
      // Proof that the measured page was the signed-in screen and not a gate: its data calls succeeded.
      const requests = (lhr.audits["network-requests"]?.details as { items?: Array<{ url: string; statusCode: number }> } | undefined)?.items ?? [];
      const adminCalls = requests.filter((q) => new URL(q.url).pathname.startsWith("/api/admin/") && q.statusCode === 200);
      if (adminCalls.length === 0) throw new Error(`${p.path}: no successful /api/admin call during the Lighthouse run: the page was not signed in`);
      const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const r: PageResult = {
        name: p.name,
        path: p.path,
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        lcpMs: metric("largest-contentful-paint"),
        tbtMs: metric("total-blocking-time"),
        cls: metric("cumulative-layout-shift"),
        fcpMs: metric("first-contentful-paint"),
        pass: false,
      };
      r.pass = r.score >= TARGETS.score && r.lcpMs <= TARGETS.lcpMs && r.tbtMs <= TARGETS.tbtMs && r.cls <= TARGETS.cls;
      // The final URL tells whether the page was really the signed-in screen, not a gate.
      console.log(`[bench:web] ${p.name}: score ${r.score}, LCP ${r.lcpMs.toFixed(0)} ms, ${adminCalls.length} admin API calls answered 200`);
      results.push(r);
    }
  } finally {
    await context.close().catch(() => undefined);
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }

  const pad = (s: string, n: number) => s.padEnd(n);
  console.log(`\n${pad("page", 12)} ${"score".padStart(6)} ${"LCP ms".padStart(8)} ${"TBT ms".padStart(8)} ${"CLS".padStart(7)} ${"FCP ms".padStart(8)}  ok`);
  for (const r of results) {
    console.log(
      `${pad(r.name, 12)} ${String(r.score).padStart(6)} ${r.lcpMs.toFixed(0).padStart(8)} ${r.tbtMs.toFixed(0).padStart(8)} ${r.cls.toFixed(3).padStart(7)} ${r.fcpMs.toFixed(0).padStart(8)}  ${r.pass ? "yes" : "NO"}`,
    );
  }
  console.log(`targets: score >= ${TARGETS.score}, LCP <= ${TARGETS.lcpMs} ms, TBT <= ${TARGETS.tbtMs} ms, CLS <= ${TARGETS.cls} (desktop preset, simulated throttling)`);
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ date: new Date().toISOString(), machine: describeMachine(), chromium: chromePath, targets: TARGETS, pages: results }, null, 2)}\n`);
  console.log(`[bench:web] wrote ${OUT}`);
  if (results.some((r) => !r.pass)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(`[bench:web] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
