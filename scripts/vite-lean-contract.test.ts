import { readFileSync, readdirSync } from "node:fs";
import { rollup } from "rollup";
import { parseAst } from "rollup/parseAst";
import { transformWithEsbuild } from "vite";
import { describe, expect, it } from "vitest";
import { leanContract, leanContractModule, type EstreeNode } from "./vite-lean-contract.ts";

const lean = (code: string) => leanContractModule(code, parseAst(code) as unknown as { body: EstreeNode[] });

/** A contract area as the web build meets it (JavaScript), importing the stand-in `z` and defineEndpoint. */
const AREA = `
import { z, defineEndpoint } from "./kit.js";
export const STATUSES = ["open", "closed"];
export const itemSchema = z.object({ id: z.string(), status: z.enum(STATUSES) });
export const unusedSchema = z.object({ secret: z.string().describe("UNUSED-SCHEMA") });
export const listEndpoint = defineEndpoint({
  method: "get", path: "/api/items", area: "items", access: "signed-in",
  summary: "SUMMARY-TEXT", description: "DESCRIPTION-TEXT", errors: [400],
  query: z.object({ q: z.string() }), queryExample: { q: "a" },
  success: { status: 200, description: "SUCCESS-TEXT", schema: z.array(itemSchema) },
});
export const refundEndpoint = defineEndpoint({
  method: "post", path: "/api/items/{id}/refund", area: "items", access: { roles: ["admin"] }, stepUp: true,
  params: z.object({ id: z.string() }), body: z.strictObject({ amount: z.number() }), bodyExample: { amount: 1 },
  success: { status: 204, description: "Refunded" }, invalidates: ["items", "orders"],
});
export const unusedEndpoint = defineEndpoint({ method: "delete", path: "/api/UNUSED-PATH", area: "items", access: "signed-in", summary: "x" });
`;
/** scripts/inert-zod.ts in small: every builder gives the stand-in back, and counts the calls. */
const KIT = `
export let calls = 0;
export const z = new Proxy(function () {}, { get: () => z, apply: () => (calls++, z) });
export const defineEndpoint = (d) => d;
`;

async function bundle(entry: string): Promise<string> {
  const files: Record<string, string> = { "/entry.js": entry, "/src/contract/items.ts": AREA, "/src/contract/kit.js": KIT };
  const build = await rollup({
    input: "/entry.js",
    plugins: [
      {
        name: "in-memory",
        resolveId: (source, importer) => (importer ? new URL(source, `file://${importer}`).pathname.replace(/^\/items\.js$/, "/src/contract/items.ts") : source),
        load: (id) => files[id] ?? null,
      },
      leanContract() as never,
    ],
  });
  const { output } = await build.generate({ format: "es" });
  return output[0].code;
}

describe("the contract in the web build (scripts/vite-lean-contract.ts)", () => {
  it("keeps what the web reads of a definition and leaves out its words, examples and schemas", async () => {
    const code = await bundle(`import { listEndpoint, refundEndpoint } from "./src/contract/items.ts"; console.log(listEndpoint, refundEndpoint);`);
    for (const kept of ['"/api/items"', '"/api/items/{id}/refund"', "stepUp", '["items", "orders"]', '"admin"', "204", "200"]) expect(code, kept).toContain(kept);
    for (const gone of ["SUMMARY-TEXT", "DESCRIPTION-TEXT", "SUCCESS-TEXT", "queryExample", "bodyExample", "UNUSED-SCHEMA", "UNUSED-PATH", "strictObject", "z.object"])
      expect(code, gone).not.toContain(gone);
  });

  it("keeps a schema the web uses as a value, and everything it names, so the stand-in can refuse its use", async () => {
    const code = await bundle(`import { itemSchema } from "./src/contract/items.ts"; console.log(itemSchema);`);
    expect(code).toContain("z.object({ id: z.string(), status: z.enum(STATUSES) })");
    expect(code).toContain('"open", "closed"');
    expect(code).not.toContain("UNUSED-SCHEMA");
  });

  it("gives every declaration the value it had", () => {
    const run = (code: string) => new Function("z", "defineEndpoint", `${code.replace(/^import .*$/m, "").replaceAll("export const", "const")}; return { STATUSES, listEndpoint, refundEndpoint };`);
    const stand: object = new Proxy(function () {}, { get: () => stand, apply: () => stand });
    const plain = run(AREA)(stand, (d: unknown) => d) as Record<string, Record<string, unknown>>;
    const leaned = run(lean(AREA))(stand, (d: unknown) => d) as Record<string, Record<string, unknown>>;
    expect(leaned.STATUSES).toEqual(plain.STATUSES);
    for (const name of ["listEndpoint", "refundEndpoint"]) {
      const { summary: _s, description: _d, errors: _e, query: _q, queryExample: _qe, params: _p, body: _b, bodyExample: _be, success, ...rest } = plain[name]!;
      const { description: _sd, schema: _ss, ...successForWeb } = success as Record<string, unknown>;
      expect(leaned[name]).toEqual({ ...rest, success: successForWeb });
    }
  });

  it("reads every contract module: each definition keeps method, path, area and access", async () => {
    const dir = new URL("../src/contract/", import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
    let definitions = 0;
    for (const file of files) {
      const { code } = await transformWithEsbuild(readFileSync(new URL(file, dir), "utf8"), file, { loader: "ts" });
      const out = lean(code);
      expect(() => parseAst(out), file).not.toThrow();
      const defined = (code.match(/= defineEndpoint\(/g) ?? []).length;
      expect((out.match(/\(\(\) => \(defineEndpoint\(\{ /g) ?? []).length, `${file}: every definition leaned`).toBe(defined);
      for (const match of out.matchAll(/defineEndpoint\(\{ (.*?) \}\)\)\)\(\)/gs))
        for (const key of ["method", "path", "area", "access"]) expect(match[1], `${file}: ${key}`).toMatch(new RegExp(`\\b${key}:`));
      definitions += defined;
    }
    expect(definitions).toBeGreaterThan(100);
  });
});
