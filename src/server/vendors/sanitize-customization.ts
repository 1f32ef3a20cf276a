import { createRequire } from "node:module";
import createDOMPurify from "dompurify";
import { LRUCache } from "lru-cache";

/**
 * Vendor custom HTML and CSS are untrusted: they are stored as written and sanitised on the way
 * out of the API. The web additionally renders HTML only inside a sandboxed iframe, so this is the
 * first of two layers, not the only one.
 */

type Purifier = ReturnType<typeof createDOMPurify>;
let purifier: Purifier | undefined;

/**
 * One jsdom window for the process, made on first use: creating it costs milliseconds and loading
 * jsdom ~60 MB of memory, which a process that never shows a vendor's custom HTML need not pay.
 */
function purify(): Purifier {
  if (!purifier) {
    const { JSDOM } = createRequire(import.meta.url)("jsdom") as typeof import("jsdom");
    purifier = createDOMPurify(new JSDOM("").window as unknown as Parameters<typeof createDOMPurify>[0]);
  }
  return purifier;
}

// Links may only point at the web, mail or phone; anything else (javascript:, data:, vbscript:) goes.
const SAFE_URL = /^(?:https?:|mailto:|tel:|#|\/(?!\/)|[^:/?#]+(?:[/?#]|$))/i;

/**
 * Sanitising is a pure function of its input, and DOMPurify on jsdom costs 0.3–2 ms plus garbage
 * per call (the tail of the vendor detail's latency, docs/performance.md): results are remembered
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

export const sanitizeCustomHtml = memoized((html) =>
  purify().sanitize(html, {
    // No forms, frames, styles or SVG/MathML: a store blurb needs text, links and images.
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed", "link", "meta", "base"],
    FORBID_ATTR: ["style", "srcset", "formaction", "action"],
    USE_PROFILES: { html: true },
    ALLOWED_URI_REGEXP: SAFE_URL,
  }),
);

/** Schemes that must never be fetched or run from CSS. */
const UNSAFE_URL_SCHEME = /^\s*['"]?\s*(?:javascript|vbscript|data|https?|ftp|file)?:|^\s*['"]?\s*\/\//i;

/**
 * Removes from CSS everything that can run code or reach another origin: IE `expression(...)`
 * and `behavior:`, Firefox `-moz-binding`, `@import`, `url(...)` with a remote or script scheme,
 * stray `javascript:`, and any `</style` that would close the element the CSS is placed in.
 * Escapes (`\65 xpression`) and comments (`exp/**\/ression`) are undone first so they cannot
 * smuggle a keyword past the checks.
 */
export const sanitizeCustomCss = memoized((css) => {
  let out = css
    // Comments can split keywords; they carry no styling.
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "")
    // CSS escapes (hex or literal) can spell any keyword; a store's CSS has no need for them.
    .replace(/\\([0-9a-f]{1,6}\s?|[\s\S])/gi, (_m, esc: string) => {
      if (!/^[0-9a-f]{1,6}\s?$/i.test(esc)) return esc;
      const code = Number.parseInt(esc.trim(), 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
    })
    .replace(/\0/g, "");
  // Repeat until stable, so removing one piece cannot join two others into a new keyword.
  for (let i = 0; i < 10; i++) {
    const before = out;
    out = out
      .replace(/<\s*\/\s*style/gi, "")
      .replace(/<!--|-->/g, "")
      .replace(/@import[^;]*;?/gi, "")
      .replace(/url\s*\(\s*("[^"]*"|'[^']*'|[^)]*)\s*\)?/gi, (whole, target: string) => (UNSAFE_URL_SCHEME.test(target) ? "none" : whole))
      .replace(/expression\s*\(/gi, "(")
      .replace(/(?:javascript|vbscript)\s*:/gi, "")
      .replace(/behavior\s*:[^;}]*;?\s*/gi, "")
      .replace(/-moz-binding\s*:[^;}]*;?\s*/gi, "");
    if (out === before) break;
  }
  return out;
});
