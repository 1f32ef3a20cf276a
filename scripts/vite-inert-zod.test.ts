import { readdirSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import type { EndpointDefinition } from "../src/contract/endpoint.ts";
import { SCHEMA_BUILDERS } from "./inert-zod.ts";

// The contract evaluated as the browser bundle has it: `zod` is the stand-in (scripts/vite-inert-zod.ts).
vi.mock("zod", () => import("./inert-zod.ts"));

const NOT_IN_BROWSER = /^zod is not in the browser bundle: /;
const contractFiles = readdirSync(new URL("../src/contract/", import.meta.url)).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));

async function definitions(): Promise<readonly EndpointDefinition[]> {
  return (await import("../src/contract/api.ts")).apiEndpoints;
}

describe("the contract under the browser's zod stand-in", () => {
  it("evaluates every contract module, and the definitions keep their plain values", async () => {
    for (const file of contractFiles) await expect(import(`../src/contract/${file}`), file).resolves.toBeDefined();
    const all = await definitions();
    expect(all.length).toBeGreaterThan(40);
    for (const d of all) {
      expect(d.path).toMatch(/^\/api\//);
      expect(["get", "post", "put", "patch", "delete"]).toContain(d.method);
      expect(typeof d.area).toBe("string");
      for (const area of d.invalidates ?? []) expect(typeof area).toBe("string");
    }
  });

  it("throws on every parse, naming the decision", async () => {
    const schema = (await definitions()).find((d) => d.success?.schema)!.success!.schema as unknown as Record<string, (x: unknown) => unknown>;
    for (const method of ["parse", "safeParse", "parseAsync", "safeParseAsync", "spa", "decode", "safeEncode"]) {
      expect(() => schema[method]!({}), method).toThrow(NOT_IN_BROWSER);
    }
    expect(() => schema.parse!({})).toThrow(/schema\.parse\(\) cannot run in the web app.*0008-contract-in-the-browser/);
  });

  it("throws on reading a schema or using it as a value", async () => {
    const { z } = await import("zod");
    const schema = z.object({ status: z.enum(["a", "b"]) }) as unknown as Record<string, unknown>;
    for (const key of ["shape", "options", "def", "_zod", "description", "element", "unwrap", "keyof", "isOptional", "then", "toJSON"]) {
      expect(() => schema[key], key).toThrow(NOT_IN_BROWSER);
    }
    expect(() => JSON.stringify(schema)).toThrow(NOT_IN_BROWSER);
    expect(() => `${String(schema)}`).toThrow(NOT_IN_BROWSER);
    expect(() => new (z.ZodError as unknown as new () => unknown)()).toThrow(NOT_IN_BROWSER);
    await expect(Promise.resolve(schema)).rejects.toThrow(NOT_IN_BROWSER);
  });

  it("lets through only real zod builders, none that reads a schema", async () => {
    const real = await vi.importActual<typeof import("zod")>("zod");
    const samples: unknown[] = [real, real.coerce, real.iso, real.string(), real.number(), real.object({}), real.array(real.string()), real.enum(["a"]), real.boolean().optional()];
    // z.coerce and z.iso are namespaces of builders.
    const namespaces = new Set<unknown>([real.coerce, real.iso]);
    for (const name of SCHEMA_BUILDERS) {
      const found = samples.some((s) => {
        const member = (s as Record<string, unknown>)[name];
        return typeof member === "function" || namespaces.has(member);
      });
      expect(found, `${name} is not a zod builder`).toBe(true);
    }
    for (const reader of [
      "parse",
      "safeParse",
      "parseAsync",
      "safeParseAsync",
      "shape",
      "options",
      "def",
      "description",
      "unwrap",
      "element",
      "keyof",
      "meta",
      "isOptional",
      "isNullable",
      "toJSONSchema",
    ]) {
      expect(SCHEMA_BUILDERS, reader).not.toContain(reader);
    }
  });
});
