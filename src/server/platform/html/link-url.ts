/**
 * What a URL attribute (href, src) of sanitised HTML may hold, as DOMPurify's ALLOWED_URI_REGEXP:
 * the web (http, https), mail, phone, a fragment, or a path on the page's own origin. Anything with
 * another scheme (javascript:, data:, vbscript:) goes, and so does anything protocol-relative.
 *
 * DOMPurify tests the value with every whitespace and control character removed, and the browser's
 * URL parser reads `\` as `/`, so `\\evil.example`, `/\evil.example` and `\/evil.example` (even with
 * spaces, tabs or control characters before or between them) are `//evil.example`: another origin.
 * A path may therefore start neither with `\` nor with `/` followed by `/` or `\`.
 */
export const SAFE_LINK_URL = /^(?:https?:|mailto:|tel:|#|\/(?![/\\])|[^:/?#\\]+(?:[/?#\\]|$))/i;
