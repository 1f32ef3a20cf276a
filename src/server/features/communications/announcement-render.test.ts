import fc from "fast-check";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { renderAnnouncement, renderMessage, sanitizeFragment } from "./announcement-render.ts";

const ALLOWED_ELEMENTS = new Set(["HTML", "HEAD", "META", "TITLE", "BODY", "H1", "P", "BR", "STRONG", "A", "HR"]);
const ALLOWED_ATTRIBUTES = new Set(["lang", "charset", "style", "href"]);

/** Every way the produced HTML could run code, checked on the raw text and on the parsed document. */
function problemsOf(html: string): string[] {
  const problems: string[] = [];
  if (/<script/i.test(html)) problems.push("a script tag");
  if (/javascript\s*:/i.test(html) || /vbscript\s*:/i.test(html)) problems.push("a script URL");
  if (/\son[a-z]+\s*=/i.test(html)) problems.push("an event-handler pattern");
  const doc = new JSDOM(html).window.document;
  for (const el of doc.querySelectorAll("*")) {
    if (!ALLOWED_ELEMENTS.has(el.tagName)) problems.push(`element ${el.tagName}`);
    for (const name of el.getAttributeNames()) if (!ALLOWED_ATTRIBUTES.has(name)) problems.push(`attribute ${name} on ${el.tagName}`);
    const href = el.getAttribute("href");
    if (href !== null && !/^(https?:|mailto:)/i.test(href)) problems.push(`href ${href}`);
  }
  return problems;
}

/** Pieces attackers and careless writers put into messages. */
const hostile = fc.constantFrom(
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '"><svg onload=alert(1)>',
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "[x](javascript:alert(1))",
  "[x](JAVASCRIPT:alert(1))",
  "[x](data:text/html;base64,PHNjcmlwdD4=)",
  "[x](vbscript:msgbox(1))",
  "[x](https://ok.test/a?b=javascript:alert(1))",
  '[x](https://ok.test/"onmouseover=alert(1))',
  "https://ok.test/?q=<script>",
  'https://ok.test/"onclick=alert(1)',
  "**bold <b onclick=x>**",
  "**",
  "[",
  "](",
  "&lt;script&gt;",
  "&#106;avascript:alert(1)",
  "<a href='javascript:alert(1)'>x</a>",
  "<style>*{}</style>",
  "\n\n",
  "\n",
  " ",
  "mailto:a@b.test",
  "[mail](mailto:a@b.test)",
  "https://hki.global/guide.",
  "(see https://hki.global/a_(b))",
);
const messageArb = fc.array(fc.oneof(hostile, fc.string({ maxLength: 12 }), fc.string({ unit: "binary", maxLength: 6 })), { minLength: 1, maxLength: 12 }).map((parts) => parts.join(""));

describe("the announcement renderer (docs/product.md §17.1)", () => {
  it("renders paragraphs, line breaks, bold and web links", () => {
    expect(renderMessage("Hello **world**!\nSecond line\n\n\nSee [the guide](https://hki.global/guide) or https://hki.global/faq.").fragment).toBe(
      '<p>Hello <strong>world</strong>!<br>Second line</p>\n<p>See <a href="https://hki.global/guide">the guide</a> or <a href="https://hki.global/faq">https://hki.global/faq</a>.</p>',
    );
    expect(renderMessage("Hello **world**!\n\nSee [the guide](https://hki.global/guide).").text).toBe("Hello world!\n\nSee the guide (https://hki.global/guide).");
  });

  it("keeps a link to anything but the web or an address as its literal text", () => {
    expect(renderMessage("[x](javascript:alert(1))").fragment).toBe("<p>[x](javascript&#58;alert(1))</p>");
    expect(renderMessage("[x](ftp://files.test/a)").fragment).toBe("<p>[x](ftp://files.test/a)</p>");
  });

  it("keeps only its own tags in the second layer: anything else becomes visible text", () => {
    expect(sanitizeFragment('<p>a<br><strong>b</strong> <a href="https://x.test/?a=1&amp;b=2">c</a></p>')).toBe('<p>a<br><strong>b</strong> <a href="https://x.test/?a=1&amp;b=2">c</a></p>');
    expect(sanitizeFragment('<p><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a><script>y</script></p>')).toBe(
      "<p>&lt;img src=x onerror=alert(1)&gt;&lt;a href=&quot;javascript:alert(1)&quot;&gt;x</a>&lt;script&gt;y&lt;/script&gt;</p>",
    );
    expect(sanitizeFragment("<p>unclosed <a href")).toBe("<p>unclosed &lt;a href");
  });

  it("never produces a script, an event handler, a script URL or any element it does not write (property)", () => {
    fc.assert(
      fc.property(messageArb, fc.string({ maxLength: 40 }), (message, title) => {
        const { html, fragment } = renderAnnouncement({ title, message, replyTo: "support@hki.global" });
        expect(problemsOf(html)).toEqual([]);
        expect(problemsOf(fragment)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps every word of the message in the plain-text part", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 20 }), (words) => {
        const { text } = renderAnnouncement({ title: "T", message: words.join(" "), replyTo: null });
        for (const w of words) expect(text).toContain(w);
      }),
    );
  });
});
