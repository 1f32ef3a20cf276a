/**
 * An announcement's message is plain text with three kinds of formatting (docs/product.md §17.1):
 * paragraphs (a blank line between them; a single line break stays a line break), **bold**, and
 * links ([text](https://…) or a bare https://… address; http, https and mailto only). It is
 * rendered by this small renderer, which escapes every character it does not itself produce, so
 * the HTML can hold only <p>, <br>, <strong> and <a href> — then every tag is checked against that
 * allowlist as a second layer (sanitizeFragment). Text that looks like markup stays text; a link to anything but
 * the web or an address stays its literal text.
 */

export interface RenderedAnnouncement {
  /** The message alone, as HTML (the dashboard's and the preview's). */
  fragment: string;
  /** The whole HTML part of the mail. */
  html: string;
  /** The plain-text part of the mail. */
  text: string;
}

const ALLOWED_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
/** **bold**, [text](url), or a bare web address. */
const INLINE = /\*\*([^*\n]{1,1000}?)\*\*|\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)|(https?:\/\/[^\s<>"'`]{1,2000})/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]]$/;

/** A bare address loses punctuation that ends the sentence around it; a ")" closing its own "(" stays. */
function trimTrailingPunctuation(url: string): string {
  let out = url;
  while (TRAILING_PUNCTUATION.test(out)) {
    if (out.endsWith(")") && out.split("(").length > out.split(")").length - 1) break;
    out = out.slice(0, -1);
  }
  return out;
}

const SCRIPT_SCHEME = /(javascript|vbscript|data)(\s*):/gi;

/** Text as HTML: the five markup characters as entities. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * So that no HTML we write contains an event-handler or script-URL pattern even as words, the text
 * between tags gets "=" and the colon after javascript, vbscript or data as entities (a browser
 * shows them unchanged). Run on sanitised output, whose attribute values never hold "<" or ">".
 */
function neutralizeText(html: string): string {
  return html.replace(/(^|>)([^<]*)/g, (_, end: string, text: string) => end + text.replace(/=/g, "&#61;").replace(SCRIPT_SCHEME, "$1$2&#58;"));
}

/** The URL as written if it is an absolute http(s) or mailto address, else null. */
function safeUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return null;
  // A script scheme's name inside a web address (…?next=javascript:…) is kept, its colon encoded.
  return url.href.replace(SCRIPT_SCHEME, "$1$2%3A");
}

/** An attribute value: everything that could end it or start an entity is escaped. */
function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#39;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

interface Inline {
  html: string;
  text: string;
}

function renderInline(line: string): Inline {
  let html = "";
  let text = "";
  let at = 0;
  for (const match of line.matchAll(INLINE)) {
    const start = match.index;
    let whole = match[0];
    const [, bold, linkText, linkUrl, bare] = match;
    let rendered: Inline | null = null;
    if (bold !== undefined) {
      rendered = { html: `<strong>${escapeHtml(bold)}</strong>`, text: bold };
    } else if (linkText !== undefined && linkUrl !== undefined) {
      const href = safeUrl(linkUrl);
      if (href) rendered = { html: `<a href="${escapeAttribute(href)}">${escapeHtml(linkText)}</a>`, text: linkText === linkUrl ? linkUrl : `${linkText} (${linkUrl})` };
    } else if (bare !== undefined) {
      const trimmed = trimTrailingPunctuation(bare);
      whole = trimmed;
      const href = trimmed.length > 0 ? safeUrl(trimmed) : null;
      if (href) rendered = { html: `<a href="${escapeAttribute(href)}">${escapeHtml(trimmed)}</a>`, text: trimmed };
    }
    if (!rendered) continue;
    html += escapeHtml(line.slice(at, start)) + rendered.html;
    text += line.slice(at, start) + rendered.text;
    at = start + whole.length;
  }
  html += escapeHtml(line.slice(at));
  text += line.slice(at);
  return { html, text };
}

/** The only tags the renderer writes; an `href` only ever holds an absolute web or mail address. */
const ALLOWED_TAG = /^<(?:\/?p|br|\/?strong|\/a|a href="(?:https?:|mailto:)[^"<>\s]*")>$/;

/**
 * The second layer: every tag of the fragment is checked against the renderer's allowlist, and
 * anything else (none is ever written) is turned into visible text. A check of our own output
 * rather than a DOM sanitiser: DOMPurify needs jsdom, whose first load blocks the process for about
 * a second (measured by the benchmark as every other request waiting), and the renderer writes
 * nothing it could remove. The property test compares the result with a real HTML parser.
 */
export function sanitizeFragment(html: string): string {
  return html.replace(/<[^>]*>?/g, (tag) => (ALLOWED_TAG.test(tag) ? tag : escapeHtml(tag)));
}

/** The message as paragraphs of lines (line ends normalised, blank lines between paragraphs). */
function paragraphs(message: string): string[][] {
  return message
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((p) => p.split("\n").map((line) => line.trimEnd()))
    .map((lines) => {
      while (lines.length > 0 && lines[0]!.trim() === "") lines.shift();
      while (lines.length > 0 && lines.at(-1)!.trim() === "") lines.pop();
      return lines;
    })
    .filter((lines) => lines.length > 0);
}

/** The message rendered: its HTML fragment and its plain text. */
export function renderMessage(message: string): { fragment: string; text: string } {
  const rendered = paragraphs(message).map((lines) => lines.map(renderInline));
  const fragment = rendered.map((lines) => `<p>${lines.map((l) => l.html).join("<br>")}</p>`).join("\n");
  const text = rendered.map((lines) => lines.map((l) => l.text).join("\n")).join("\n\n");
  return { fragment: neutralizeText(sanitizeFragment(fragment)), text };
}

/** Inline styles for mail programs (they ignore style sheets); added after sanitising, fixed text only. */
function styled(fragment: string): string {
  return fragment.replace(/<p>/g, '<p style="margin:0 0 14px">').replace(/<a href/g, '<a style="color:#2563eb" href');
}

/** The mail: the title as heading, the message, and a footer naming where replies go. */
export function renderAnnouncement(input: { title: string; message: string; replyTo: string | null }): RenderedAnnouncement {
  const { fragment, text } = renderMessage(input.message);
  const title = neutralizeText(escapeHtml(input.title));
  const footer = input.replyTo ? `You receive this as an artist on HKI Global. Questions? Reply to this e-mail or write to ${input.replyTo}.` : "You receive this as an artist on HKI Global.";
  const html = [
    "<!doctype html>",
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${title}</title></head>`,
    '<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937">',
    `<h1 style="font-size:20px;margin:0 0 16px">${title}</h1>`,
    styled(fragment),
    '<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px">',
    `<p style="font-size:12px;color:#6b7280;margin:0">${neutralizeText(escapeHtml(footer))}</p>`,
    "</body>",
    "</html>",
  ].join("\n");
  return { fragment, html, text: `${text}\n\n--\n${footer}\n` };
}
