import { describe, expect, it } from "vitest";
import { checkBudget, FIRST_SCREEN_BUDGET_BYTES, htmlScriptFiles, type Manifest, ROUTE_CHUNK_BUDGET_BYTES } from "./web-budget.ts";

/** Entry -> shared vendor chunk; lazy dashboard and analytics pages; the chart pulls in a chart-only library. */
const manifest: Manifest = {
  "index.html": { file: "assets/index.js", isEntry: true, imports: ["_vendor.js"], dynamicImports: ["features/dashboard/dashboard-page.tsx", "features/analytics/analytics-page.tsx"] },
  "_vendor.js": { file: "assets/vendor.js" },
  "features/dashboard/dashboard-page.tsx": { file: "assets/dashboard-page.js", src: "features/dashboard/dashboard-page.tsx", isDynamicEntry: true, imports: ["_vendor.js", "_format.js"] },
  "_format.js": { file: "assets/format.js" },
  "features/analytics/analytics-page.tsx": { file: "assets/analytics-page.js", src: "features/analytics/analytics-page.tsx", isDynamicEntry: true, imports: ["_format.js"], dynamicImports: ["features/analytics/revenue-chart.tsx"] },
  "features/analytics/revenue-chart.tsx": { file: "assets/revenue-chart.js", src: "features/analytics/revenue-chart.tsx", isDynamicEntry: true, imports: ["_charts.js", "_format.js"] },
  "_charts.js": { file: "assets/charts.js" },
  "index.css": { file: "assets/index.css" },
};

const sizes = (overrides: Record<string, number>) => (file: string) => overrides[file] ?? 1000;

describe("checkBudget", () => {
  it("counts the entry and its static imports as the first screen, not the lazy routes", () => {
    const report = checkBudget(manifest, sizes({ "assets/index.js": 50_000, "assets/vendor.js": 60_000 }));
    expect(report.firstScreen.files).toEqual(["assets/index.js", "assets/vendor.js"]);
    expect(report.firstScreen.gzipBytes).toBe(110_000);
    expect(report.overBudget).toEqual([]);
    expect(report.chunks.map((c) => c.file).sort()).toEqual(["assets/analytics-page.js", "assets/charts.js", "assets/dashboard-page.js", "assets/format.js", "assets/revenue-chart.js"]);
  });

  it("fails a first screen over 120 kB", () => {
    const report = checkBudget(manifest, sizes({ "assets/index.js": 60_000, "assets/vendor.js": FIRST_SCREEN_BUDGET_BYTES - 60_000 + 1 }));
    expect(report.overBudget).toEqual(["first screen"]);
  });

  it("exempts only what the analytics chart alone loads, and fails any other chunk over 50 kB", () => {
    const big = ROUTE_CHUNK_BUDGET_BYTES + 1;
    const exempt = checkBudget(manifest, sizes({ "assets/charts.js": 200_000, "assets/revenue-chart.js": big }));
    expect(exempt.overBudget).toEqual([]);
    expect(exempt.chunks.find((c) => c.file === "assets/charts.js")?.exempt).toMatch(/analytics chart/);
    // format.js is shared with the dashboard: not exempt even though the chart imports it.
    expect(exempt.chunks.find((c) => c.file === "assets/format.js")?.budgetBytes).toBe(ROUTE_CHUNK_BUDGET_BYTES);
    const over = checkBudget(manifest, sizes({ "assets/format.js": big }));
    expect(over.overBudget).toEqual(["assets/format.js (shared)"]);
  });

  it("adds scripts the built HTML loads", () => {
    const html = `<script type="module" crossorigin src="/assets/index.js"></script><link rel="modulepreload" crossorigin href="/assets/extra.js"><link rel="stylesheet" href="/assets/index.css">`;
    expect(htmlScriptFiles(html)).toEqual(["assets/index.js", "assets/extra.js"]);
    const report = checkBudget(manifest, sizes({}), htmlScriptFiles(html));
    expect(report.firstScreen.files).toEqual(["assets/extra.js", "assets/index.js", "assets/vendor.js"]);
  });
});
