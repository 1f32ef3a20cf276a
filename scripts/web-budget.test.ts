import { describe, expect, it } from "vitest";
import { moduleName } from "./vite-chunk-modules.ts";
import { CLERK_SIGN_IN_BUDGET_BYTES, SIGNED_IN_START_BUDGET_BYTES, checkBudget, FIRST_SCREEN_BUDGET_BYTES, htmlScriptFiles, type Manifest, ROUTE_CHUNK_BUDGET_BYTES } from "./web-budget.ts";

/** Entry -> shared vendor chunk; lazy dashboard and analytics pages; the chart pulls in a chart-only library. */
const manifest: Manifest = {
  "index.html": { file: "assets/index.js", isEntry: true, imports: ["_vendor.js"], dynamicImports: ["features/dashboard/dashboard-page.tsx", "features/analytics/analytics-page.tsx"] },
  "_vendor.js": { file: "assets/vendor.js" },
  "features/dashboard/dashboard-page.tsx": { file: "assets/dashboard-page.js", src: "features/dashboard/dashboard-page.tsx", isDynamicEntry: true, imports: ["_vendor.js", "_format.js"] },
  "_format.js": { file: "assets/format.js" },
  "features/analytics/analytics-page.tsx": {
    file: "assets/analytics-page.js",
    src: "features/analytics/analytics-page.tsx",
    isDynamicEntry: true,
    imports: ["_format.js"],
    dynamicImports: ["features/analytics/revenue-chart.tsx"],
  },
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

describe("Clerk's sign-in in the budget (issue 24)", () => {
  /** The entry loads the dashboard or, under Clerk only, the Clerk gate; both use a shared helper chunk. */
  const clerkManifest: Manifest = {
    "index.html": { file: "assets/index.js", isEntry: true, dynamicImports: ["features/dashboard/dashboard-page.tsx", "_clerk-auth-gate.js"] },
    "features/dashboard/dashboard-page.tsx": { file: "assets/dashboard-page.js", src: "features/dashboard/dashboard-page.tsx", isDynamicEntry: true, imports: ["index.html", "_shared.js"] },
    // Vite leaves `src` out of a dynamic entry chunk without a facade module; the name remains.
    "_clerk-auth-gate.js": {
      file: "assets/clerk-auth-gate.js",
      name: "clerk-auth-gate",
      isDynamicEntry: true,
      imports: ["index.html", "_shared.js", "_clerk-core.js"],
      dynamicImports: ["../../node_modules/@clerk/ui/dist/SignIn.js"],
    },
    "_clerk-core.js": { file: "assets/clerk-core.js" },
    "../../node_modules/@clerk/ui/dist/SignIn.js": { file: "assets/SignIn.js", src: "../../node_modules/@clerk/ui/dist/SignIn.js", isDynamicEntry: true, imports: ["_clerk-core.js"] },
    "_shared.js": { file: "assets/shared.js" },
  };
  const modules = (shared: string[]) => ({
    "assets/index.js": ["src/web/main.tsx", "node_modules/react/index.js"],
    "assets/dashboard-page.js": ["src/web/features/dashboard/dashboard-page.tsx"],
    "assets/clerk-auth-gate.js": ["src/web/app/clerk-auth-gate.tsx", "node_modules/@clerk/react/dist/index.mjs"],
    "assets/clerk-core.js": ["node_modules/@clerk/clerk-js/dist/clerk.no-rhc.mjs"],
    "assets/SignIn.js": ["node_modules/@clerk/ui/dist/SignIn.js"],
    "assets/shared.js": shared,
  });

  it("gives the Clerk chunk and its static imports their own line, and exempts Clerk's on-demand UI from the route budget", () => {
    const report = checkBudget(clerkManifest, sizes({ "assets/clerk-auth-gate.js": 100_000, "assets/clerk-core.js": 250_000, "assets/SignIn.js": 60_000 }), [], modules(["src/web/lib/cn.ts"]));
    expect(report.clerk).toEqual({ files: ["assets/clerk-auth-gate.js", "assets/clerk-core.js"], gzipBytes: 350_000, budgetBytes: CLERK_SIGN_IN_BUDGET_BYTES });
    expect(report.chunks.find((c) => c.file === "assets/SignIn.js")?.exempt).toMatch(/Clerk/);
    // The chunk the dashboard shares with Clerk is the built-in provider's too: budgeted as usual.
    expect(report.chunks.find((c) => c.file === "assets/shared.js")?.budgetBytes).toBe(ROUTE_CHUNK_BUDGET_BYTES);
    expect(report.firstScreen.files).toEqual(["assets/index.js"]);
    expect(report.clerkInLocalMode).toEqual([]);
    expect(report.overBudget).toEqual([]);
  });

  it("fails a Clerk sign-in over its budget", () => {
    const report = checkBudget(clerkManifest, sizes({ "assets/clerk-core.js": CLERK_SIGN_IN_BUDGET_BYTES }), [], modules([]));
    expect(report.overBudget).toEqual(["Clerk sign-in"]);
  });

  it("finds a Clerk module that landed in a chunk the built-in provider loads", () => {
    const report = checkBudget(clerkManifest, sizes({}), [], modules(["node_modules/@tanstack/query-core/build/modern/infiniteQueryObserver.js", "node_modules/@clerk/ui/dist/lazyModules/common.js"]));
    expect(report.clerkInLocalMode).toEqual([{ file: "assets/shared.js", modules: ["node_modules/@clerk/ui/dist/lazyModules/common.js"] }]);
  });

  it("refuses to judge without the module list of a chunk", () => {
    const incomplete: Record<string, string[]> = modules([]);
    delete incomplete["assets/dashboard-page.js"];
    expect(() => checkBudget(clerkManifest, sizes({}), [], incomplete)).toThrow(/chunk-modules has no entry for assets\/dashboard-page.js/);
  });
});

describe("moduleName (scripts/vite-chunk-modules.ts)", () => {
  it("names package files from their last node_modules, and our files from the project root", () => {
    expect(moduleName("/work/app/node_modules/@clerk/ui/dist/no-rhc/lazyModules/common.js?commonjs-es-import", "/work/app")).toBe("node_modules/@clerk/ui/dist/no-rhc/lazyModules/common.js");
    expect(moduleName("/work/app/node_modules/a/node_modules/@clerk/shared/dist/x.mjs", "/work/app/")).toBe("node_modules/@clerk/shared/dist/x.mjs");
    expect(moduleName("/work/app/src/web/app/clerk-auth-gate.tsx", "/work/app")).toBe("src/web/app/clerk-auth-gate.tsx");
    expect(moduleName("\0vite/preload-helper.js", "/work/app")).toBe("vite/preload-helper.js");
  });

  describe("the signed-in start (issue 23)", () => {
    // Entry -> lazy router -> lazy layout and dashboard; the router also reaches analytics, which does not count.
    const app: Manifest = {
      "index.html": { file: "assets/index.js", isEntry: true, imports: ["_react.js"], dynamicImports: ["_routed-app.js"] },
      "_react.js": { file: "assets/react.js" },
      "_routed-app.js": {
        file: "assets/routed-app.js",
        isDynamicEntry: true,
        imports: ["index.html", "_router.js"],
        dynamicImports: ["_layout.js", "features/dashboard/dashboard-page.tsx", "features/analytics/analytics-page.tsx"],
      },
      "_router.js": { file: "assets/router.js" },
      "_layout.js": { file: "assets/layout.js", imports: ["_router.js"], dynamicImports: ["app/user-menu.tsx"] },
      "app/user-menu.tsx": { file: "assets/user-menu.js", src: "app/user-menu.tsx", isDynamicEntry: true, imports: ["_radix.js"] },
      "_radix.js": { file: "assets/radix.js" },
      "features/dashboard/dashboard-page.tsx": { file: "assets/dashboard-page.js", src: "features/dashboard/dashboard-page.tsx", isDynamicEntry: true, imports: ["_format.js"] },
      "_format.js": { file: "assets/format.js" },
      "features/analytics/analytics-page.tsx": { file: "assets/analytics-page.js", src: "features/analytics/analytics-page.tsx", isDynamicEntry: true },
    };
    const modules = {
      "assets/index.js": ["src/web/main.tsx"],
      "assets/react.js": ["node_modules/react-dom/index.js"],
      "assets/routed-app.js": ["src/web/routed-app.tsx", "src/web/router.tsx"],
      "assets/router.js": ["node_modules/react-router/dist/index.mjs"],
      "assets/layout.js": ["src/web/app/layout.tsx", "src/web/app/nav-list.tsx"],
      "assets/user-menu.js": ["src/web/app/user-menu.tsx"],
      "assets/radix.js": ["node_modules/@radix-ui/react-menu/dist/index.mjs"],
      "assets/dashboard-page.js": ["src/web/features/dashboard/dashboard-page.tsx"],
      "assets/format.js": ["src/web/lib/format.ts"],
      "assets/analytics-page.js": ["src/web/features/analytics/analytics-page.tsx"],
    };

    it("counts the entry, router, layout and dashboard with their static imports, not what loads on first use", () => {
      const report = checkBudget(app, sizes({}), ["theme-init.js"], modules);
      expect(report.signedInStart?.files).toEqual([
        "assets/dashboard-page.js",
        "assets/format.js",
        "assets/index.js",
        "assets/layout.js",
        "assets/react.js",
        "assets/routed-app.js",
        "assets/router.js",
        "theme-init.js",
      ]);
      expect(report.signedInStart?.gzipBytes).toBe(8000);
      expect(report.overBudget).toEqual([]);
    });

    it("fails a signed-in start over its budget", () => {
      const report = checkBudget(app, sizes({ "assets/react.js": SIGNED_IN_START_BUDGET_BYTES - 7000 + 1 }), ["theme-init.js"], modules);
      expect(report.overBudget).toContain("signed-in start");
    });
  });
});
