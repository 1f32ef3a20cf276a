import type { Plugin } from "vite";

const INERT_ZOD_ID = "\0inert-zod";

/**
 * In the web bundle, `zod` as imported by src/contract is replaced by an inert stand-in: every
 * property and call of it gives the stand-in back, so the contract's schema declarations cost
 * nothing, while the endpoint definitions keep their method, path, area and invalidations (plain
 * values). The web uses definitions for those and for types only; it never parses with a schema
 * in the browser (real zod would add ~93 kB gzip to the first screen). Tests run the web code with
 * real zod and do check every answer against its schema (src/web/test/setup.ts).
 * docs/decisions/0007-endpoint-definitions.md says why.
 */
export function inertContractZod(): Plugin {
  return {
    name: "inert-contract-zod",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "zod" && importer && /[\\/]src[\\/]contract[\\/]/.test(importer)) return INERT_ZOD_ID;
      return null;
    },
    load(id) {
      if (id !== INERT_ZOD_ID) return null;
      return [
        "const inert = new Proxy(function () {}, {",
        "  get: (_target, key) => (key === Symbol.toPrimitive ? () => \"\" : inert),",
        "  apply: () => inert,",
        "});",
        "export const z = inert;",
        "export default inert;",
      ].join("\n");
    },
  };
}
