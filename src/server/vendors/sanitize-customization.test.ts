import { describe, expect, it } from "vitest";
import { HOSTILE_CUSTOMIZATIONS, SAFE_CSS, SAFE_HTML } from "../db/seed/customization.ts";
import { sanitizeCustomCss, sanitizeCustomHtml } from "./sanitize-customization.ts";

describe("sanitizeCustomHtml", () => {
  it("removes scripts, event handlers, javascript: links and frames from the seed's hostile samples", () => {
    for (const { html } of HOSTILE_CUSTOMIZATIONS) {
      const out = sanitizeCustomHtml(html);
      expect(out).not.toMatch(/<script/i);
      expect(out).not.toMatch(/\son\w+\s*=/i);
      expect(out).not.toMatch(/javascript:/i);
      expect(out).not.toMatch(/<iframe/i);
    }
    expect(sanitizeCustomHtml(HOSTILE_CUSTOMIZATIONS[0].html)).toBe('<p>Welcome!</p><img src="x">');
    expect(sanitizeCustomHtml(HOSTILE_CUSTOMIZATIONS[1].html)).toBe("<a>Click for a discount</a><div>Sale</div>");
  });

  it("answers the same safe output when asked again, and copes with an empty customisation", () => {
    const hostile = '<p>Hi</p><img src=x onerror="alert(1)"><script>alert(2)</script>';
    const first = sanitizeCustomHtml(hostile);
    expect(first).not.toMatch(/onerror|script/i);
    expect(sanitizeCustomHtml(hostile)).toBe(first);
    expect(sanitizeCustomHtml("")).toBe("");
    expect(sanitizeCustomCss("")).toBe("");
  });

  it("keeps the seed's safe samples as they are", () => {
    for (const html of SAFE_HTML) expect(sanitizeCustomHtml(html)).toBe(html);
  });

  it("drops data: and vbscript: URLs, style attributes, SVG script and obfuscated schemes", () => {
    expect(sanitizeCustomHtml('<a href="data:text/html,<script>alert(1)</script>">x</a>')).toBe("<a>x</a>");
    expect(sanitizeCustomHtml('<a href=" jav&#x09;ascript:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizeCustomHtml('<p style="background:url(javascript:alert(1))">x</p>')).toBe("<p>x</p>");
    expect(sanitizeCustomHtml("<svg><script>alert(1)</script></svg>")).not.toMatch(/script/i);
    expect(sanitizeCustomHtml("<style>body{}</style><b>b</b>")).toBe("<b>b</b>");
  });
});

describe("sanitizeCustomCss", () => {
  it("removes imports, javascript: URLs, expressions and behaviours from the seed's hostile samples", () => {
    for (const { css } of HOSTILE_CUSTOMIZATIONS) {
      const out = sanitizeCustomCss(css);
      expect(out).not.toMatch(/@import|javascript:|expression\s*\(|behavior|evil\.example/i);
    }
    expect(sanitizeCustomCss(HOSTILE_CUSTOMIZATIONS[0].css)).toBe("\n.store-header { background: none; }");
    expect(sanitizeCustomCss(HOSTILE_CUSTOMIZATIONS[1].css)).toBe(".product-card { width: (alert('xss')); }");
  });

  it("keeps the seed's safe samples as they are", () => {
    for (const css of SAFE_CSS) expect(sanitizeCustomCss(css)).toBe(css);
  });

  it("removes -moz-binding, remote url()s, </style and keywords hidden by comments or escapes", () => {
    expect(sanitizeCustomCss("a { -moz-binding: url(x.xml#xss); color: red }")).toBe("a { color: red }");
    expect(sanitizeCustomCss("a { background: url(https://evil.example/t.png) }")).toBe("a { background: none }");
    expect(sanitizeCustomCss("a { background: url( '//evil.example/t.png' ) }")).toBe("a { background: none }");
    expect(sanitizeCustomCss("a { background: url(data:image/svg+xml,abc) }")).toBe("a { background: none }");
    expect(sanitizeCustomCss("a { background: url(/img/local.png) }")).toBe("a { background: url(/img/local.png) }");
    expect(sanitizeCustomCss("a{}</style><script>alert(1)</script>")).not.toMatch(/<\/style/i);
    expect(sanitizeCustomCss("a { width: exp/**/ression(alert(1)) }")).not.toMatch(/expression\s*\(/i);
    expect(sanitizeCustomCss("a { width: \\65 xpression(alert(1)) }")).not.toMatch(/expression\s*\(/i);
    expect(sanitizeCustomCss("@\\69mport 'x.css'; a{}")).not.toMatch(/import/i);
    expect(sanitizeCustomCss("a { b: java\\73 cript:x }")).not.toMatch(/javascript:/i);
    // Removing one piece must not join two halves into a new keyword.
    expect(sanitizeCustomCss("@im@importport url(x.css);")).not.toMatch(/@import/i);
  });
});
