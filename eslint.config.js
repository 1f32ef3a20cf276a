import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

/** Test files and the `testing/` folders (harness, fixtures, fakes): never in the server bundle (scripts/build-server.ts). */
const SERVER_TEST_CODE = ["src/server/**/*.test.ts", "src/server/**/testing/**"];
/** Where Kysely may be used: queries files, the ledger, and db (connect, drivers, migrations, seed, schema). */
const SERVER_DATA_LAYER = ["src/server/**/*.queries.ts", "src/server/domain/ledger/**/*.ts", "src/server/platform/db/**/*.ts", "src/server/demo-data/**/*.ts"];

const NO_SCRIPTS = { group: ["**/scripts/**"], message: "src/ must not import scripts/ (scripts may import src, not the reverse)" };
const NO_SERVER_FROM_WEB = { group: ["**/server/**"], message: "web code must not import server code" };
const CONTRACT_ZOD_ONLY = { group: ["**/server/**", "**/web/**"], message: "contract depends on zod only" };
const NO_TESTING = { group: ["**/testing/**"], message: "production server code must not import test-only code (testing/ folders)" };
const NO_KYSELY = {
  group: ["kysely", "kysely/**"],
  message: "SQL lives in *.queries.ts (or ledger/, db/): call a query function, and type handles as Executor (platform/db/executor.ts) or Database (platform/db/connect.ts)",
};
const NO_OTHER_FEATURE_ALIAS = {
  group: ["@web/features/**"],
  message: "a feature must not import another feature's files: import your own with ./, move shared code to @web/lib or @web/components",
};
/** `../other/...` from a file `depth` folders below src/web/features/<feature>/. */
const NO_OTHER_FEATURE_RELATIVE = (depth) => ({
  regex: `^${"\\.\\./".repeat(depth)}(?!\\.\\./)`,
  message: "a feature must not import another feature's files: import your own with ./, move shared code to @web/lib or @web/components",
});

const restrictImports = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

/**
 * No schema at run time in the web (docs/decisions/0008-contract-in-the-browser.md): in the browser
 * bundle zod is an inert stand-in (scripts/inert-zod.ts) that throws on use, while web unit tests
 * run real zod, so only this rule shows such a use before a user does. Types stay free to import.
 */
const NOT_IN_BROWSER =
  "zod is not in the browser bundle (docs/decisions/0008-contract-in-the-browser.md): use the contract's types and plain constants; answers are checked against the schemas in tests";
const WEB_NO_RUNTIME_SCHEMAS = {
  "@typescript-eslint/no-restricted-imports": [
    "error",
    {
      paths: [{ name: "zod", allowTypeImports: true, message: NOT_IN_BROWSER }],
      patterns: [
        { group: ["zod/*"], allowTypeImports: true, message: NOT_IN_BROWSER },
        { group: ["@contract/*"], importNamePattern: "Schema$", allowTypeImports: true, message: NOT_IN_BROWSER },
      ],
    },
  ],
  "no-restricted-syntax": [
    "error",
    {
      selector: "CallExpression[callee.property.name=/^(safe)?([pP]arse|[dD]ecode|[eE]ncode)(Async)?$|^spa$/]:not([callee.object.name=/^(JSON|Date|URL)$/])",
      message: `Parsing with a schema: ${NOT_IN_BROWSER}`,
    },
    {
      selector:
        "MemberExpression[object.type='MemberExpression'][object.object.name=/Endpoint$/][object.property.name=/^(params|query|body)$/], MemberExpression[object.object.name=/Endpoint$/][object.property.name='success'][property.name='schema']",
      message: `Reading an endpoint definition's schemas: ${NOT_IN_BROWSER}`,
    },
  ],
};
/** Web tests run real zod (they check answers against the schemas); the API client parses only when a test turns that on. */
const WEB_SCHEMA_USE_ALLOWED = ["src/web/**/*.test.{ts,tsx}", "src/web/test/**", "src/web/lib/api-client.ts"];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "playwright-report/**", "test-results/**", "bench/.cache/**", "data/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Import boundaries (ARCHITECTURE.md: imports flow one way). In flat config a later block's
  // no-restricted-imports REPLACES an earlier one for the files both match, so each block below
  // lists every pattern that applies to its files, most specific block last.
  // CommonJS configuration files (dependency-cruiser reads .dependency-cruiser.cjs with require).
  { files: ["**/*.cjs"], languageOptions: { sourceType: "commonjs", globals: { ...globals.node } } },
  { files: ["src/**/*.{ts,tsx}"], rules: restrictImports(NO_SCRIPTS) },
  { files: ["src/web/**/*.{ts,tsx}"], rules: restrictImports(NO_SCRIPTS, NO_SERVER_FROM_WEB) },
  { files: ["src/web/features/**/*.{ts,tsx}"], rules: restrictImports(NO_SCRIPTS, NO_SERVER_FROM_WEB, NO_OTHER_FEATURE_ALIAS, NO_OTHER_FEATURE_RELATIVE(1)) },
  {
    files: ["src/web/features/*/*/**/*.{ts,tsx}"],
    rules: restrictImports(NO_SCRIPTS, NO_SERVER_FROM_WEB, NO_OTHER_FEATURE_ALIAS, NO_OTHER_FEATURE_RELATIVE(2)),
  },
  { files: ["src/web/**/*.{ts,tsx}"], ignores: WEB_SCHEMA_USE_ALLOWED, rules: WEB_NO_RUNTIME_SCHEMAS },
  { files: ["src/contract/**/*.ts"], rules: restrictImports(NO_SCRIPTS, CONTRACT_ZOD_ONLY) },
  // Every line the server writes is JSON through pino and the redactor (platform/logging/logger.ts:
  // logEvent, logLifecycle, processLog). Printing plainly is left to what talks to a person at a
  // terminal: the operator's commands (cli/, the demo generator) and the process entry's last words
  // when the configuration is wrong or start-up fails (main.ts, shared with those commands). The
  // one-time notice of a generated password (runtime.ts) is allowed on its line, with its reason.
  {
    files: ["src/server/**/*.ts"],
    ignores: [...SERVER_TEST_CODE, "src/server/cli/**", "src/server/demo-data/generate-cli.ts", "src/server/main.ts"],
    rules: { "no-console": "error" },
  },
  // A request's headers are read in one place (platform/http/exchange-headers.ts: node's own header
  // record under node:http, which every request takes, tests included), never through Hono's
  // c.req.header(), which copies them all into a web Headers object on first use.
  {
    files: ["src/server/**/*.ts"],
    ignores: [...SERVER_TEST_CODE, "src/server/platform/http/exchange-headers.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='header'][callee.object.property.name='req']",
          message: "Read request headers with requestHeader()/requestHeaders() from platform/http/exchange-headers.ts",
        },
      ],
    },
  },
  // Server production code: no test harness, and SQL (Kysely) only in the data layer.
  { files: ["src/server/**/*.ts"], ignores: SERVER_TEST_CODE, rules: restrictImports(NO_SCRIPTS, NO_TESTING, NO_KYSELY) },
  { files: SERVER_DATA_LAYER, ignores: SERVER_TEST_CODE, rules: restrictImports(NO_SCRIPTS, NO_TESTING) },
);
