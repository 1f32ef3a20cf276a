import type { z } from "zod";

/**
 * Request bodies refuse keys they do not know (issue 18: `{"dry_run": true}` once started a real
 * payout run, the misspelt key dropped and `dryRun` defaulted to false). Every object inside a body
 * schema must therefore be strict (`z.strictObject`, which is also what makes the OpenAPI document
 * say `additionalProperties: false`), and the body itself must be an object. The endpoint router
 * refuses to register a definition that breaks this, so a new endpoint cannot forget it.
 */

interface DefLike {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: { _zod: { def: DefLike } };
  innerType?: SchemaLike;
  in?: SchemaLike;
  out?: SchemaLike;
  element?: SchemaLike;
  options?: SchemaLike[];
  left?: SchemaLike;
  right?: SchemaLike;
  items?: SchemaLike[];
  rest?: SchemaLike | null;
  valueType?: SchemaLike;
}
interface SchemaLike {
  _zod: { def: DefLike };
}

/** Wrappers that hold one schema: their inner one decides. */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "nonoptional", "catch", "success"]);

function defOf(schema: unknown): DefLike {
  return (schema as SchemaLike)._zod.def;
}

/** The object a body schema is (under wrappers, refinements and transforms), or undefined when it is none. */
function topObject(schema: unknown): DefLike | undefined {
  const def = defOf(schema);
  if (def.type === "object") return def;
  if (WRAPPERS.has(def.type) && def.innerType) return topObject(def.innerType);
  if (def.type === "pipe" && def.in) return topObject(def.in);
  return undefined;
}

/** Paths ("" for the body itself) of the objects in `schema` that accept unknown keys. */
function looseObjects(schema: unknown, path: string, out: string[], depth = 0): void {
  if (depth > 32) return;
  const def = defOf(schema);
  const at = (key: string) => (path ? `${path}.${key}` : key);
  switch (def.type) {
    case "object": {
      if (def.catchall?._zod.def.type !== "never") out.push(path || "(body)");
      for (const [key, value] of Object.entries(def.shape ?? {})) looseObjects(value, at(key), out, depth + 1);
      return;
    }
    case "pipe":
      if (def.in) looseObjects(def.in, path, out, depth + 1);
      if (def.out && defOf(def.out).type !== "transform") looseObjects(def.out, path, out, depth + 1);
      return;
    case "array":
      if (def.element) looseObjects(def.element, at("[]"), out, depth + 1);
      return;
    case "union":
      for (const option of def.options ?? []) looseObjects(option, path, out, depth + 1);
      return;
    case "intersection":
      if (def.left) looseObjects(def.left, path, out, depth + 1);
      if (def.right) looseObjects(def.right, path, out, depth + 1);
      return;
    case "tuple":
      (def.items ?? []).forEach((item, i) => looseObjects(item, at(String(i)), out, depth + 1));
      if (def.rest) looseObjects(def.rest, at("[]"), out, depth + 1);
      return;
    case "record":
      // A map with free keys by design (e.g. an export's filters, checked by its kind); its values still count.
      if (def.valueType) looseObjects(def.valueType, at("*"), out, depth + 1);
      return;
    default:
      if (WRAPPERS.has(def.type) && def.innerType) looseObjects(def.innerType, path, out, depth + 1);
  }
}

/** Why a body schema is not strict, or null when it is: an object refusing unknown keys all the way down. */
export function strictBodyProblem(schema: z.ZodType): string | null {
  if (!topObject(schema)) return "the body must be an object schema (z.strictObject)";
  const loose: string[] = [];
  looseObjects(schema, "", loose);
  return loose.length ? `objects that accept unknown keys (use z.strictObject): ${loose.join(", ")}` : null;
}
