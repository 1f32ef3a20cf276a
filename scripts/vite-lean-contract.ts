import type { Plugin } from "vite";

/** A contract module (src/contract), as Vite names it; its tests never reach the web build. */
const CONTRACT_MODULE = /[\\/]src[\\/]contract[\\/][^\\/]+\.ts$/;

/**
 * What an endpoint definition holds for the server, the API reference and the tests only: its words,
 * examples, error statuses and schemas. The web reads a definition's method, path, access, stepUp
 * and invalidates (src/web/lib/api-client.ts, app/current-user.ts) and never its schemas (the lint
 * rule WEB_NO_RUNTIME_SCHEMAS in eslint.config.js); only web tests, which run the source, check
 * answers against `success.schema`.
 */
export const SERVER_ONLY_KEYS: ReadonlySet<string> = new Set(["summary", "description", "bodyExample", "queryExample", "errors", "params", "query", "body", "signedBody"]);
/** The same for the definition's `success`: its status and media types stay. */
export const SERVER_ONLY_SUCCESS_KEYS: ReadonlySet<string> = new Set(["description", "schema"]);

/** The ESTree nodes read here, as Rollup's parser gives them (with offsets into the code). */
export interface EstreeNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}
type Node = EstreeNode;

/** Initialisers Rollup already sees as free of side effects: nothing to mark. */
const PLAIN = new Set(["Literal", "Identifier", "TemplateLiteral", "ArrowFunctionExpression", "FunctionExpression"]);

function keyName(property: Node): string | null {
  if (property.type !== "Property" || property.computed) return null;
  const key = property.key as Node;
  if (key.type === "Identifier") return key.name as string;
  if (key.type === "Literal" && typeof key.value === "string") return key.value;
  return null;
}

/** `object`'s source without the properties named in `drop`; `nested` rewrites named properties' values. */
function objectWithout(code: string, object: Node, drop: ReadonlySet<string>, nested: Record<string, ReadonlySet<string>> = {}): string {
  const kept: string[] = [];
  for (const property of object.properties as Node[]) {
    const name = keyName(property);
    if (name !== null && drop.has(name)) continue;
    const value = property.value as Node | undefined;
    if (name !== null && nested[name] && value?.type === "ObjectExpression" && !property.shorthand) kept.push(`${JSON.stringify(name)}: ${objectWithout(code, value, nested[name]!)}`);
    else kept.push(code.slice(property.start, property.end));
  }
  return `{ ${kept.join(", ")} }`;
}

/** `defineEndpoint({…})` with an object written in place: the definition the web keeps. */
function definitionForWeb(code: string, init: Node): string | null {
  const callee = init.callee as Node | undefined;
  const args = init.arguments as Node[] | undefined;
  if (init.type !== "CallExpression" || callee?.type !== "Identifier" || callee.name !== "defineEndpoint" || args?.length !== 1 || args[0]!.type !== "ObjectExpression") return null;
  return `${code.slice(init.start, args[0]!.start)}${objectWithout(code, args[0]!, SERVER_ONLY_KEYS, { success: SERVER_ONLY_SUCCESS_KEYS })})`;
}

/**
 * A contract module as the web build bundles it (`program` is `code`, JavaScript, parsed as ESTree
 * with offsets). Two changes, neither altering a value the web reads:
 * - each endpoint definition (`const x = defineEndpoint({…})`) loses SERVER_ONLY_KEYS, and its
 *   `success` SERVER_ONLY_SUCCESS_KEYS;
 * - the initialiser of every module-level `const`/`let` is wrapped in an IIFE marked
 *   `/*#__PURE__*\/`, evaluated where it was: `const a = z.object({…})` becomes
 *   `const a = /*#__PURE__*\/ (() => (z.object({…})))()`.
 * Rollup can then leave out every schema, definition and constant nothing in the bundle uses: a
 * call to zod's stand-in (scripts/inert-zod.ts) cannot otherwise be known to have no side effects,
 * and a definition kept every schema it names.
 */
export function leanContractModule(code: string, program: { body: Node[] }): string {
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const statement of program.body) {
    const declaration = statement.type === "ExportNamedDeclaration" ? (statement.declaration as Node | null) : statement;
    if (declaration?.type !== "VariableDeclaration") continue;
    for (const declarator of declaration.declarations as Node[]) {
      const init = declarator.init as Node | null;
      if (!init || PLAIN.has(init.type)) continue;
      const text = definitionForWeb(code, init) ?? code.slice(init.start, init.end);
      edits.push({ start: init.start, end: init.end, text: `/*#__PURE__*/ (() => (${text}))()` });
    }
  }
  let out = "";
  let at = 0;
  for (const { start, end, text } of edits) {
    out += code.slice(at, start) + text;
    at = end;
  }
  return out + code.slice(at);
}

/**
 * The contract in the web build (docs/decisions/0008-contract-in-the-browser.md): its module-level
 * code only declares, so it is bundled as leanContractModule says and what the web does not use
 * leaves the bundle. Runs after Vite turned the TypeScript into JavaScript (no `enforce`).
 */
export function leanContract(): Plugin {
  return {
    name: "lean-contract",
    apply: "build",
    transform(code, id) {
      if (!CONTRACT_MODULE.test(id.split("?")[0]!)) return null;
      return { code: leanContractModule(code, this.parse(code) as unknown as { body: Node[] }), map: null };
    },
  };
}
