/**
 * What `zod` is in the web bundle when src/contract imports it (scripts/vite-inert-zod.ts swaps it
 * in; docs/decisions/0008-contract-in-the-browser.md says why). The contract's module-level code
 * only declares schemas, so the builders it calls (`z.object`, `.optional()`, `.extend`, …) give
 * the stand-in back and the endpoint definitions keep their plain values (method, path, area,
 * invalidations). Anything else — parsing, reading a schema's shape, options or defaults, using
 * it as a value — throws at once: a schema used at run time in the browser would otherwise answer
 * with the stand-in itself, whose `safeParse(x).success` looks true. Web unit tests run real zod,
 * so they cannot see that; this error and the lint rule in eslint.config.js do.
 */

/** zod's schema builders: each returns a schema, none reads one. The contract's declarations may call these. */
export const SCHEMA_BUILDERS: readonly string[] = [
  // z.*: the schema kinds, and the coerce namespace
  "any",
  "array",
  "bigint",
  "boolean",
  "coerce",
  "custom",
  "date",
  "discriminatedUnion",
  "email",
  "enum",
  "instanceof",
  "int",
  "intersection",
  "iso",
  "lazy",
  "literal",
  "looseObject",
  "map",
  "nan",
  "never",
  "null",
  "nullable",
  "number",
  "object",
  "optional",
  "preprocess",
  "record",
  "set",
  "strictObject",
  "string",
  "stringbool",
  "symbol",
  "tuple",
  "undefined",
  "union",
  "unknown",
  "url",
  "uuid",
  "void",
  // schema methods that give a schema back
  "and",
  "brand",
  "catch",
  "catchall",
  "check",
  "datetime",
  "default",
  "describe",
  "endsWith",
  "exclude",
  "extend",
  "extract",
  "finite",
  "gt",
  "gte",
  "includes",
  "length",
  "lowercase",
  "lt",
  "lte",
  "max",
  "min",
  "multipleOf",
  "negative",
  "nonempty",
  "nonnegative",
  "nonoptional",
  "nonpositive",
  "normalize",
  "nullish",
  "omit",
  "or",
  "overwrite",
  "partial",
  "passthrough",
  "pick",
  "pipe",
  "positive",
  "prefault",
  "readonly",
  "refine",
  "regex",
  "required",
  "safeExtend",
  "startsWith",
  "strict",
  "strip",
  "superRefine",
  "toLowerCase",
  "toUpperCase",
  "transform",
  "trim",
  "uppercase",
];

// Marked free of side effects: the web bundle leaves the stand-in out when no contract code it keeps calls zod.
const builders = /*#__PURE__*/ new Set(SCHEMA_BUILDERS);

/** The error every other use gives. */
export function notInTheBrowser(what: string): Error {
  return new Error(
    `zod is not in the browser bundle: ${what} cannot run in the web app. The contract's schemas are inert stand-ins here ` +
      "(scripts/inert-zod.ts); answers are checked against them in tests. See docs/decisions/0008-contract-in-the-browser.md.",
  );
}

const PARSERS = /^(safe)?(parse|Parse|decode|Decode|encode|Encode)(Async)?$|^spa$/;

// A function target, so builders can be called (`z.string()`) and chained (`.min(1)`).
const target = function inertZodSchema() {};

export const inert: unknown = /*#__PURE__*/ new Proxy(target, {
  get(_target, key) {
    // Symbols are asked by the language itself (iteration, instanceof, string conversion): no schema use.
    if (typeof key === "symbol") return undefined;
    if (builders.has(key)) return inert;
    if (PARSERS.test(key)) throw notInTheBrowser(`schema.${key}()`);
    throw notInTheBrowser(`reading "${key}" of a schema`);
  },
  apply: () => inert,
  construct: () => {
    throw notInTheBrowser("new on a zod export");
  },
  set: (_target, key) => {
    throw notInTheBrowser(`setting "${String(key)}" on a schema`);
  },
});

export const z = inert;
export default inert;
