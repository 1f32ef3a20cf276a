/**
 * Import rules of the server's layers (ARCHITECTURE.md "Layers", decision 0012), checked by
 * `npm run check:structure` (scripts/check-structure.ts) inside `npm test`:
 *   platform  ←  domain  ←  features/<area>  ←  composition root (app, routes, job handlers, export kinds, runtime, cli)
 * plus no import cycle between files anywhere in src/.
 */
const SERVER_TESTS = "(\\.test\\.ts$|/testing/)";
module.exports = {
  forbidden: [
    { name: "no-cycle", severity: "error", comment: "files must not import each other in a circle", from: { path: "^src/" }, to: { circular: true } },
    {
      name: "platform-stays-below",
      severity: "error",
      comment: "platform code is the lowest layer: it never imports the domain, an area, demo data or the composition root",
      from: { path: "^src/server/platform/", pathNot: SERVER_TESTS },
      to: { path: "^src/server/(domain|features|demo-data)/|^src/server/[^/]+\\.ts$" },
    },
    {
      name: "domain-stays-below-areas",
      severity: "error",
      comment: "the shared domain (ledger, audit recording, settings, cursors, money) never imports an area, demo data or the composition root",
      from: { path: "^src/server/domain/", pathNot: SERVER_TESTS },
      to: { path: "^src/server/(features|demo-data)/|^src/server/[^/]+\\.ts$" },
    },
    {
      name: "http-errors-above-the-domain",
      severity: "error",
      comment: "the domain and every area's SQL layer answer rows or throw the ledger's errors; what an HTTP answer is, the services and the HTTP kit decide",
      from: { path: "^src/server/domain/|\\.queries\\.ts$", pathNot: SERVER_TESTS },
      to: { path: "^src/server/platform/(http|request)/" },
    },
    {
      name: "no-sideways-areas",
      severity: "error",
      comment: "an area never imports another area: move what both need to domain/ or platform/",
      from: { path: "^src/server/features/([^/]+)/", pathNot: SERVER_TESTS },
      to: { path: "^src/server/features/", pathNot: "^src/server/features/$1/" },
    },
    {
      name: "areas-not-root",
      severity: "error",
      comment: "an area never imports the composition root (it is given what it needs)",
      from: { path: "^src/server/features/", pathNot: SERVER_TESTS },
      to: { path: "^src/server/[^/]+\\.ts$|^src/server/(cli|demo-data)/" },
    },
    {
      name: "demo-data-users-only",
      severity: "error",
      comment: "demo data and the generator are used only by start-up seeding, the CLI, tests and the bench",
      from: { path: "^src/", pathNot: "^src/server/(demo-data|cli|testing|reliability)/|^src/server/runtime\\.ts$|\\.test\\.ts$" },
      to: { path: "^src/server/demo-data/" },
    },
    {
      name: "no-test-code-in-production",
      severity: "error",
      from: { path: "^src/server/", pathNot: SERVER_TESTS },
      to: { path: SERVER_TESTS },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules|^dist/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js"] },
  },
};
