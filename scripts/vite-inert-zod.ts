import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";

/** The stand-in module (scripts/inert-zod.ts). */
export const INERT_ZOD_MODULE = fileURLToPath(new URL("./inert-zod.ts", import.meta.url));

/**
 * In the web bundle, `zod` as imported by src/contract resolves to a stand-in whose builders give
 * it back (so the contract's declarations cost nothing and the endpoint definitions keep their
 * plain values) and whose every other use throws "zod is not in the browser bundle: …". The web
 * uses definitions for their method, path and areas and for types only; it never parses in the
 * browser (real zod would add ~93 kB gzip to the first screen). Tests run the web code with real
 * zod and check every answer against its schema (src/web/test/setup.ts).
 * docs/decisions/0007-endpoint-definitions.md and 0008-contract-in-the-browser.md say why.
 */
export function inertContractZod(): Plugin {
  return {
    name: "inert-contract-zod",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "zod" && importer && /[\\/]src[\\/]contract[\\/]/.test(importer)) return INERT_ZOD_MODULE;
      return null;
    },
  };
}
