import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { apiEndpoints } from "../src/contract/api.ts";
import { API_AREAS, type ApiArea } from "../src/contract/areas.ts";
import type { EndpointDefinition } from "../src/contract/endpoint.ts";
import { queryKeys } from "../src/web/lib/query-keys.ts";

/**
 * One name per area (src/contract/areas.ts): the name an endpoint gives as its `area` is the name of
 * the contract file that defines it, of its server folder, of its screen's web folder when it has
 * one of its own, and the first element of every query key the web keeps its answers under.
 */
const root = join(import.meta.dirname, "..");
const AREAS = Object.keys(API_AREAS) as ApiArea[];
/** Contract files every area shares: the definition kit and its access rule, common schemas, the list of every endpoint, the list of areas. */
const SHARED_CONTRACT = new Set(["endpoint.ts", "access.ts", "common.ts", "api.ts", "areas.ts"]);

const isArea = (name: string): name is ApiArea => Object.hasOwn(API_AREAS, name);
const folders = (dir: string) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

/** The area a contract file belongs to: `<area>.ts`, or `<area>-<part>.ts` for a large area's other files. */
function areaOfContractFile(file: string): ApiArea | undefined {
  const stem = file.replace(/\.ts$/, "");
  if (isArea(stem)) return stem;
  return AREAS.filter((a) => stem.startsWith(`${a}-`)).sort((a, b) => b.length - a.length)[0];
}

function isDefinition(value: unknown): value is EndpointDefinition {
  return typeof value === "object" && value !== null && "method" in value && "path" in value && "area" in value && "access" in value;
}

/** Every non-test source file under `dir`. */
function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

describe("one name per area", () => {
  const contractFiles = readdirSync(join(root, "src/contract")).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !SHARED_CONTRACT.has(f));

  it("names every contract file after an area, and every area has its contract file", () => {
    expect(contractFiles.filter((f) => areaOfContractFile(f) === undefined)).toEqual([]);
    expect(AREAS.filter((a) => !contractFiles.includes(`${a}.ts`))).toEqual([]);
  });

  it("defines every endpoint in the contract file of its area, and names only areas in `invalidates`", async () => {
    const found = new Set<EndpointDefinition>();
    const misplaced: string[] = [];
    for (const file of contractFiles) {
      const module = (await import(join(root, "src/contract", file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (!isDefinition(value)) continue;
        found.add(value);
        if (value.area !== areaOfContractFile(file)) misplaced.push(`${file}: ${name} is in the area "${value.area}"`);
        for (const area of value.invalidates ?? []) if (!isArea(area)) misplaced.push(`${file}: ${name} invalidates "${area}", which is no area`);
      }
    }
    expect(misplaced).toEqual([]);
    expect(apiEndpoints.filter((d) => !found.has(d)).map((d) => `${d.method} ${d.path}`)).toEqual([]);
  });

  it("gives every area its server folder, named as the area, with its routes file", () => {
    const serverFolders = folders("src/server/features");
    expect(serverFolders.filter((f) => !isArea(f))).toEqual([]);
    expect(AREAS.filter((a) => !existsSync(join(root, "src/server/features", a, `${a}.routes.ts`)))).toEqual([]);
  });

  it("names every web folder that calls the API after its area, and every area's screen exists", () => {
    const webFolders = folders("src/web/features");
    const withCalls = webFolders.filter((f) => readdirSync(join(root, "src/web/features", f)).some((file) => file.endsWith("-api.ts")));
    expect(withCalls.filter((f) => !isArea(f) || API_AREAS[f].screen !== f || !existsSync(join(root, "src/web/features", f, `${f}-api.ts`)))).toEqual([]);
    expect(AREAS.filter((a) => API_AREAS[a].screen !== null && !webFolders.includes(API_AREAS[a].screen!))).toEqual([]);
  });

  it("builds every query key from its area's name", () => {
    expect(Object.keys(queryKeys).sort()).toEqual([...AREAS].sort());
    for (const area of AREAS) {
      const keys = queryKeys[area] as Record<string, unknown>;
      expect(keys.all).toEqual([area]);
      for (const [name, make] of Object.entries(keys)) {
        if (typeof make !== "function") continue;
        const key = (make as (...args: unknown[]) => unknown[])(...Array.from({ length: make.length }, () => "x"));
        expect([name, key[0]]).toEqual([name, area]);
      }
    }
  });

  it("takes every query key of the web from the factory (src/web/lib/query-keys.ts)", () => {
    const handWritten: string[] = [];
    const rules: Array<[RegExp, string]> = [
      [/queryKey:(?!\s*queryKeys[.[])/g, "a query key not from queryKeys"],
      [/\b(?:set|get)QueryData\s*(?:<[^>]*>)?\((?!\s*queryKeys[.[])/g, "a cache key not from queryKeys"],
      [/\bconst \w+Keys?\s*=\s*[{[]/g, "a key object of its own"],
    ];
    for (const file of sources("src/web")) {
      if (relative("src/web", file) === join("lib", "query-keys.ts")) continue;
      const text = readFileSync(join(root, file), "utf8");
      for (const [rule, what] of rules) for (const match of text.matchAll(rule)) handWritten.push(`${file}:${text.slice(0, match.index).split("\n").length}: ${what}`);
    }
    expect(handWritten).toEqual([]);
  });
});
