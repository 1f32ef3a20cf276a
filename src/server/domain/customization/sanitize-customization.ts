import * as csstree from "css-tree";
import { LRUCache } from "lru-cache";
import { SAFE_LINK_URL } from "../../platform/html/link-url.ts";
import { htmlPurifier as purify } from "../../platform/html/purifier.ts";

/**
 * Vendor custom HTML and CSS are untrusted: they are stored as written, and the API sends them
 * sanitised. The web additionally renders HTML only inside a sandboxed iframe, so this is the
 * first of two layers, not the only one. The HTML's sanitised copy is made when it is written and
 * stored beside it (`customHtmlColumns`, migration 034, decision 0027); the CSS is sanitised on the
 * way out (css-tree is light; HTML needs a DOM).
 */

/**
 * Sanitising is a pure function of its input, and DOMPurify on jsdom costs 0.3–2 ms plus garbage
 * per call (the tail of the vendor detail's latency: p95 2.85 ms, 0.56 ms remembered): results are remembered
 * by input, bounded by characters held (~8 MB at most). A changed customisation is a new input.
 */
function memoized(sanitize: (input: string) => string): (input: string) => string {
  const results = new LRUCache<string, string>({
    maxSize: 4_000_000,
    maxEntrySize: 400_000,
    // lru-cache needs a positive size: an empty customisation ("" in, "" out) still counts 1.
    sizeCalculation: (output, input) => input.length + output.length + 1,
  });
  return (input) => {
    const known = results.get(input);
    if (known !== undefined) return known;
    const output = sanitize(input);
    results.set(input, output);
    return output;
  };
}

/** The allow-list of a store's custom HTML. Changing it changes CUSTOM_HTML_POLICY (a test holds them together). */
export const CUSTOM_HTML_ALLOW_LIST = {
  // No forms, frames, styles or SVG/MathML: a store blurb needs text, links and images.
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed", "link", "meta", "base"],
  FORBID_ATTR: ["style", "srcset", "formaction", "action"],
  USE_PROFILES: { html: true },
  // Links may only point at the web, mail, phone or this origin (platform/html/link-url.ts).
  ALLOWED_URI_REGEXP: SAFE_LINK_URL,
};

/**
 * The version of the sanitising a stored copy was made under: the allow-list above and the
 * DOMPurify release applying it. A copy made under another version is not shown: the HTML is
 * sanitised again on the way out.
 */
export const CUSTOM_HTML_POLICY = 1;

export const sanitizeCustomHtml = memoized((html) => purify().sanitize(html, CUSTOM_HTML_ALLOW_LIST));

/** The stored copy of a store's custom HTML, made as it is written (every write of `custom_html` sets these). */
export function customHtmlColumns(html: string | null): { custom_html_shown: string | null; custom_html_policy: number | null } {
  return html === null ? { custom_html_shown: null, custom_html_policy: null } : { custom_html_shown: sanitizeCustomHtml(html), custom_html_policy: CUSTOM_HTML_POLICY };
}

/**
 * What the API shows of a store's custom HTML: the copy made when it was written, or, for a row
 * written before the copy existed or under another policy, the HTML sanitised now. Reading a store
 * then needs no DOM in the process (DOMPurify's jsdom window: ~45 MB kept for good, decision 0027).
 */
export function shownCustomHtml(row: { custom_html: string | null; custom_html_shown: string | null; custom_html_policy: number | null }): string | null {
  if (row.custom_html === null) return null;
  return row.custom_html_policy === CUSTOM_HTML_POLICY && row.custom_html_shown !== null ? row.custom_html_shown : sanitizeCustomHtml(row.custom_html);
}

/**
 * Vendor CSS goes through a real CSS parser (css-tree) and is rebuilt from what an allowlist keeps,
 * so the decision is made on what a browser will see, not on text that escapes, comments or odd
 * spacing can disguise (docs/product.md §4.4):
 * - at-rules: only @media, @supports, @container, @layer and @keyframes blocks (no @import,
 *   @font-face, @namespace…);
 * - declarations: only allowlisted properties (vendor prefixes of them too) and custom properties;
 * - values: keywords, numbers, colours, strings and allowlisted functions (colours, gradients,
 *   maths, transforms, filters, easing); `url()` only to a path on the storefront's own origin —
 *   every remote, protocol-relative, backslashed or scheme URL removes its declaration, as does
 *   any function not on the list (`image-set()`, `expression()`, `src()`, …);
 * - anything the parser could not read (a raw value, a nested block it did not understand) goes.
 * Names are compared after CSS escapes are decoded; a `<` in what remains is escaped so the CSS
 * can never close the <style> element it is placed in.
 */
const ALLOWED_PROPERTIES = new Set([
  "color",
  "opacity",
  "background",
  "background-color",
  "background-image",
  "background-position",
  "background-position-x",
  "background-position-y",
  "background-size",
  "background-repeat",
  "background-attachment",
  "background-clip",
  "background-origin",
  "background-blend-mode",
  "border",
  "border-top",
  "border-right",
  "border-bottom",
  "border-left",
  "border-color",
  "border-style",
  "border-width",
  "border-top-color",
  "border-right-color",
  "border-bottom-color",
  "border-left-color",
  "border-top-style",
  "border-right-style",
  "border-bottom-style",
  "border-left-style",
  "border-top-width",
  "border-right-width",
  "border-bottom-width",
  "border-left-width",
  "border-radius",
  "border-top-left-radius",
  "border-top-right-radius",
  "border-bottom-left-radius",
  "border-bottom-right-radius",
  "border-collapse",
  "border-spacing",
  "border-block",
  "border-inline",
  "border-block-start",
  "border-block-end",
  "border-inline-start",
  "border-inline-end",
  "outline",
  "outline-color",
  "outline-style",
  "outline-width",
  "outline-offset",
  "box-shadow",
  "text-shadow",
  "margin",
  "margin-top",
  "margin-right",
  "margin-bottom",
  "margin-left",
  "margin-block",
  "margin-inline",
  "margin-block-start",
  "margin-block-end",
  "margin-inline-start",
  "margin-inline-end",
  "padding",
  "padding-top",
  "padding-right",
  "padding-bottom",
  "padding-left",
  "padding-block",
  "padding-inline",
  "padding-block-start",
  "padding-block-end",
  "padding-inline-start",
  "padding-inline-end",
  "width",
  "height",
  "min-width",
  "min-height",
  "max-width",
  "max-height",
  "inline-size",
  "block-size",
  "min-inline-size",
  "max-inline-size",
  "min-block-size",
  "max-block-size",
  "box-sizing",
  "display",
  "position",
  "top",
  "right",
  "bottom",
  "left",
  "inset",
  "z-index",
  "float",
  "clear",
  "overflow",
  "overflow-x",
  "overflow-y",
  "overflow-wrap",
  "visibility",
  "aspect-ratio",
  "object-fit",
  "object-position",
  "flex",
  "flex-basis",
  "flex-direction",
  "flex-flow",
  "flex-grow",
  "flex-shrink",
  "flex-wrap",
  "order",
  "grid",
  "grid-area",
  "grid-auto-columns",
  "grid-auto-flow",
  "grid-auto-rows",
  "grid-column",
  "grid-column-end",
  "grid-column-start",
  "grid-row",
  "grid-row-end",
  "grid-row-start",
  "grid-template",
  "grid-template-areas",
  "grid-template-columns",
  "grid-template-rows",
  "gap",
  "row-gap",
  "column-gap",
  "align-content",
  "align-items",
  "align-self",
  "justify-content",
  "justify-items",
  "justify-self",
  "place-content",
  "place-items",
  "place-self",
  "columns",
  "column-count",
  "column-width",
  "column-rule",
  "column-span",
  "column-fill",
  "font",
  "font-family",
  "font-size",
  "font-style",
  "font-weight",
  "font-variant",
  "font-stretch",
  "font-feature-settings",
  "font-kerning",
  "line-height",
  "letter-spacing",
  "word-spacing",
  "text-align",
  "text-align-last",
  "text-decoration",
  "text-decoration-color",
  "text-decoration-line",
  "text-decoration-style",
  "text-decoration-thickness",
  "text-underline-offset",
  "text-indent",
  "text-overflow",
  "text-transform",
  "text-wrap",
  "white-space",
  "word-break",
  "word-wrap",
  "hyphens",
  "vertical-align",
  "direction",
  "writing-mode",
  "tab-size",
  "list-style",
  "list-style-type",
  "list-style-position",
  "table-layout",
  "caption-side",
  "empty-cells",
  "quotes",
  "content",
  "counter-reset",
  "counter-increment",
  "transform",
  "transform-origin",
  "transform-style",
  "perspective",
  "perspective-origin",
  "backface-visibility",
  "translate",
  "rotate",
  "scale",
  "transition",
  "transition-delay",
  "transition-duration",
  "transition-property",
  "transition-timing-function",
  "animation",
  "animation-delay",
  "animation-direction",
  "animation-duration",
  "animation-fill-mode",
  "animation-iteration-count",
  "animation-name",
  "animation-play-state",
  "animation-timing-function",
  "filter",
  "backdrop-filter",
  "mix-blend-mode",
  "isolation",
  "cursor",
  "pointer-events",
  "user-select",
  "resize",
  "scroll-behavior",
  "accent-color",
  "caret-color",
  "appearance",
  "will-change",
  "image-rendering",
]);

const ALLOWED_FUNCTIONS = new Set([
  "rgb",
  "rgba",
  "hsl",
  "hsla",
  "hwb",
  "lab",
  "lch",
  "oklab",
  "oklch",
  "color",
  "color-mix",
  "light-dark",
  "calc",
  "min",
  "max",
  "clamp",
  "var",
  "linear-gradient",
  "radial-gradient",
  "conic-gradient",
  "repeating-linear-gradient",
  "repeating-radial-gradient",
  "repeating-conic-gradient",
  "translate",
  "translatex",
  "translatey",
  "translatez",
  "translate3d",
  "rotate",
  "rotatex",
  "rotatey",
  "rotatez",
  "rotate3d",
  "scale",
  "scalex",
  "scaley",
  "scalez",
  "scale3d",
  "skew",
  "skewx",
  "skewy",
  "matrix",
  "matrix3d",
  "perspective",
  "cubic-bezier",
  "steps",
  "linear",
  "blur",
  "brightness",
  "contrast",
  "drop-shadow",
  "grayscale",
  "hue-rotate",
  "invert",
  "opacity",
  "saturate",
  "sepia",
  "repeat",
  "minmax",
  "fit-content",
  "counter",
  "counters",
]);

const BLOCK_AT_RULES = new Set(["media", "supports", "container", "layer", "keyframes"]);
const VALUE_NODES = new Set(["Value", "Identifier", "Number", "Dimension", "Percentage", "Hash", "String", "Operator", "Parentheses", "Function", "Url"]);
const VENDOR_PREFIX = /^-(?:webkit|moz|ms|o)-/;
const PLAIN_KEYWORD = /^-{0,2}[a-z_\u0080-\uffff][a-z0-9_\u0080-\uffff-]*$/;

/** A name as the browser reads it: CSS escapes decoded, lower case. */
function plainName(raw: string): string {
  return csstree.ident.decode(raw).toLowerCase();
}

/**
 * True for a URL that stays on the page's own origin. The URL parser drops tabs and newlines
 * anywhere and control characters and spaces at the ends, and reads `\` as `/`, so the check
 * does the same first: `ht\9 tps://…` and `/\\/evil.example` are remote URLs.
 */
export function isLocalUrl(value: string): boolean {
  const url = value
    .replace(/[\t\n\r]/g, "")
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "")
    .replace(/\\/g, "/");
  if (url === "") return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return false;
  if (url.startsWith("//")) return false;
  // eslint-disable-next-line no-control-regex -- as above
  return !/[\u0000-\u001f\u007f]/.test(url);
}

function valueIsSafe(value: csstree.CssNode): boolean {
  let safe = true;
  csstree.walk(value, (node) => {
    if (!safe) return;
    if (!VALUE_NODES.has(node.type)) safe = false;
    else if (node.type === "Function" && !ALLOWED_FUNCTIONS.has(plainName(node.name))) safe = false;
    else if (node.type === "Url" && !isLocalUrl(node.value)) safe = false;
    // A keyword is a plain name once escapes are decoded: `\@import` or `\28` spelled as a
    // keyword is no keyword a property takes, only a way to smuggle text past the rules.
    else if (node.type === "Identifier" && !PLAIN_KEYWORD.test(plainName(node.name))) safe = false;
  });
  return safe;
}

function declaration(node: csstree.Declaration): string | null {
  const property = plainName(node.property);
  const custom = property.startsWith("--");
  if (custom ? !/^--[a-z0-9_-]+$/.test(property) : !ALLOWED_PROPERTIES.has(property.replace(VENDOR_PREFIX, ""))) return null;
  if (!valueIsSafe(node.value)) return null;
  const value = csstree.generate(node.value).trim();
  if (value === "") return null;
  return `${property}: ${value}${node.important ? " !important" : ""}`;
}

/** The declarations (and, inside at-rules, the rules) of a block that the allowlist keeps. */
function block(children: csstree.List<csstree.CssNode>): string[] {
  const kept: string[] = [];
  children.forEach((child) => {
    if (child.type === "Declaration") {
      const d = declaration(child);
      if (d) kept.push(d);
    }
  });
  return kept;
}

function statement(node: csstree.CssNode, depth: number): string | null {
  if (depth > 8) return null;
  if (node.type === "Rule") {
    if (node.prelude.type !== "SelectorList" || node.block.children.some((c) => c.type !== "Declaration")) return null;
    const declarations = block(node.block.children);
    return declarations.length ? `${csstree.generate(node.prelude)} { ${declarations.join("; ")}; }` : null;
  }
  if (node.type === "Atrule") {
    const name = plainName(node.name);
    if (!BLOCK_AT_RULES.has(name.replace(VENDOR_PREFIX, "")) || !node.block) return null;
    if (node.prelude && (node.prelude.type !== "AtrulePrelude" || node.prelude.children.some((c) => c.type === "Raw"))) return null;
    const inner: string[] = [];
    node.block.children.forEach((child) => {
      const s = statement(child, depth + 1);
      if (s) inner.push(s);
    });
    const prelude = node.prelude ? ` ${csstree.generate(node.prelude)}` : "";
    return inner.length ? `@${name}${prelude} { ${inner.join(" ")} }` : null;
  }
  return null;
}

function rebuild(css: string): string {
  const ast = csstree.parse(css.replace(/\0/g, ""), { parseCustomProperty: true, positions: false, onParseError: () => undefined });
  if (ast.type !== "StyleSheet") return "";
  const kept: string[] = [];
  ast.children.forEach((node) => {
    const s = statement(node, 0);
    if (s) kept.push(s);
  });
  // `<` can only remain inside strings or URLs, where an escape means the same: "</style" cannot close anything.
  return kept.join("\n").replace(/</g, "\\3c ");
}

/**
 * The rebuilt CSS is read again until reading it changes nothing (at most a few rounds): what a
 * browser parses from the output is then exactly what the checks passed, even where generating
 * text from the tree re-tokenises differently (a stray backslash, say). Output that never settles
 * is dropped whole.
 */
export const sanitizeCustomCss = memoized((css) => {
  if (css.trim() === "") return "";
  let out = rebuild(css);
  for (let round = 0; round < 4; round++) {
    const again = rebuild(out);
    if (again === out) return out;
    out = again;
  }
  return "";
});
