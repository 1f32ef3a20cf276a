/**
 * `npm run bench:web`: Lighthouse (desktop preset) on every screen of the built app, served by the
 * real server on the demo data, in the system Chromium (/usr/bin/chromium or CHROME_PATH; a browser
 * is never downloaded). Prints the performance score, LCP, TBT and CLS of the dashboard, vendors,
 * error logs and analytics against issue 7's targets, and the accessibility score of every screen
 * in the light and the dark theme against issue 23's (>= 95); writes bench/results/<date>-<commit>-web.json.
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
import { RESULTS_DIR, measuredCommit, resultFile } from "../lib/result-file.ts";
import { freePort, signIn, startServer } from "../lib/server-process.ts";

/** The code this run measures, read at its start (HEAD may move while it runs). */
const commitAtStart = measuredCommit();

/** `perf`: the screens issue 7's performance targets are for; every screen is checked for accessibility. */
const PAGES: ReadonlyArray<{ name: string; path: string; perf: boolean }> = [
  { name: "dashboard", path: "/", perf: true },
  { name: "vendors", path: "/vendors", perf: true },
  { name: "vendor", path: "/vendors/{first}", perf: false },
  { name: "products", path: "/products", perf: false },
  { name: "financials", path: "/financials", perf: false },
  { name: "analytics", path: "/analytics", perf: true },
  { name: "invite codes", path: "/invite-codes", perf: false },
  { name: "communications", path: "/communications", perf: false },
  { name: "admin users", path: "/admin-users", perf: false },
  { name: "error logs", path: "/errors", perf: true },
  { name: "settings", path: "/settings", perf: false },
  { name: "system debug", path: "/system-debug", perf: false },
];
const THEMES = ["light", "dark"] as const;
const THEME_STORAGE_KEY = "theme"; // src/web/app/theme.ts
const TARGETS = { score: 95, lcpMs: 1200, tbtMs: 150, cls: 0.05, accessibility: 95 };
const BETA_MARKER_KEY = "beta-access"; // src/web/lib/beta-marker.ts
const SESSION_STORAGE_KEY = "hki-admin-session"; // src/web/lib/session.ts

const chromePath = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p): p is string => !!p && existsSync(p));
if (!chromePath) {
  console.error("bench:web needs Chromium (/usr/bin/chromium or CHROME_PATH); none found, nothing measured.");
  process.exit(2);
}

interface PageResult {
  name: string;
  path: string;
  theme: (typeof THEMES)[number];
  /** Lighthouse's accessibility category, 0-100. */
  accessibility: number;
  /** Performance figures: only for the light theme of the screens with issue 7's targets. */
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
    const firstVendor = await fetch(`${server.baseUrl}/api/admin/vendors?limit=1`, { headers: { Authorization: `Bearer ${token}` } });
    const vendorId = ((await firstVendor.json()) as { vendors: Array<{ id: string }> }).vendors[0]?.id ?? "none";
    for (const theme of THEMES) {
      await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, theme]);
      for (const p of PAGES) {
        const path = p.path.replace("{first}", vendorId);
        const perf = p.perf && theme === "light";
        const runner = await lighthouse(
          `${server.baseUrl}${path}`,
          // network-requests: the proof below that the page was signed in (it belongs to no category but performance).
          { port, output: "json", logLevel: "error", onlyCategories: perf ? ["performance", "accessibility"] : ["accessibility"], onlyAudits: ["network-requests"], disableStorageReset: true },
          desktopConfig,
        );
        const lhr = runner?.lhr;
        if (!lhr) throw new Error(`Lighthouse returned nothing for ${path}`);
        if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${path}: ${lhr.runtimeError.message}`);
        // Proof that the measured page was the signed-in screen and not a gate: its data calls succeeded.
        const requests = (lhr.audits["network-requests"]?.details as { items?: Array<{ url: string; statusCode: number }> } | undefined)?.items ?? [];
        const adminCalls = requests.filter((q) => new URL(q.url).pathname.startsWith("/api/admin/") && q.statusCode === 200);
        const sessionChecked = requests.some((q) => new URL(q.url).pathname === "/api/auth/me" && q.statusCode === 200);
        if (!sessionChecked || (perf && adminCalls.length === 0))
          throw new Error(`${path}: no signed-in session during the Lighthouse run (GET /api/auth/me ${sessionChecked ? "ok" : "missing"}, ${adminCalls.length} admin calls)`);
        const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
        const failed = Object.values(lhr.audits)
          .filter((a) => lhr.categories.accessibility?.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0) && a.score === 0)
          .map((a) => a.id);
        const r: PageResult = {
          name: p.name,
          path,
          theme,
          accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
          score: perf ? Math.round((lhr.categories.performance?.score ?? 0) * 100) : Number.NaN,
          lcpMs: perf ? metric("largest-contentful-paint") : Number.NaN,
          tbtMs: perf ? metric("total-blocking-time") : Number.NaN,
          cls: perf ? metric("cumulative-layout-shift") : Number.NaN,
          fcpMs: perf ? metric("first-contentful-paint") : Number.NaN,
          pass: false,
        };
        const perfPass = !perf || (r.score >= TARGETS.score && r.lcpMs <= TARGETS.lcpMs && r.tbtMs <= TARGETS.tbtMs && r.cls <= TARGETS.cls);
        r.pass = perfPass && r.accessibility >= TARGETS.accessibility;
        console.log(
          `[bench:web] ${p.name} (${theme}): accessibility ${r.accessibility}${failed.length ? ` (failing: ${failed.join(", ")})` : ""}${perf ? `, performance ${r.score}, LCP ${r.lcpMs.toFixed(0)} ms` : ""}, ${adminCalls.length} admin API calls answered 200`,
        );
        results.push(r);
      }
    }
  } finally {
    await context.close().catch(() => undefined);
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }

  const pad = (s: string, n: number) => s.padEnd(n);
  const fig = (n: number, digits = 0) => (Number.isNaN(n) ? "-" : n.toFixed(digits));
  console.log(`\n${pad("page", 15)} ${pad("theme", 6)} ${"a11y".padStart(5)} ${"score".padStart(6)} ${"LCP ms".padStart(8)} ${"TBT ms".padStart(8)} ${"CLS".padStart(7)} ${"FCP ms".padStart(8)}  ok`);
  for (const r of results) {
    console.log(
      `${pad(r.name, 15)} ${pad(r.theme, 6)} ${String(r.accessibility).padStart(5)} ${fig(r.score).padStart(6)} ${fig(r.lcpMs).padStart(8)} ${fig(r.tbtMs).padStart(8)} ${fig(r.cls, 3).padStart(7)} ${fig(r.fcpMs).padStart(8)}  ${r.pass ? "yes" : "NO"}`,
    );
  }
  console.log(
    `targets: accessibility >= ${TARGETS.accessibility} on every screen in both themes (issue 23); score >= ${TARGETS.score}, LCP <= ${TARGETS.lcpMs} ms, TBT <= ${TARGETS.tbtMs} ms, CLS <= ${TARGETS.cls} on dashboard, vendors, error logs, analytics (issue 7; desktop preset, simulated throttling)`,
  );
  mkdirSync(RESULTS_DIR, { recursive: true });
  const out = resultFile("web", commitAtStart);
  writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), machine: describeMachine(), chromium: chromePath, targets: TARGETS, pages: results }, null, 2)}\n`);
  console.log(`[bench:web] wrote ${out}`);
  if (results.some((r) => !r.pass)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(`[bench:web] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
