import type { MiddlewareHandler } from "hono";

/**
 * Headers on every response, API and static alike. No inline script is allowed; inline styles
 * are, because Radix and Recharts position elements with style attributes (and Clerk's sign-in
 * form styles itself the same way).
 *
 * Under Clerk (AUTH_PROVIDER=clerk) the browser talks to the instance's Frontend API, so its origin
 * joins `connect-src` and `img-src`, and nothing else: Clerk's JS and UI are bundled from npm and
 * served by us, so `script-src` stays `'self'`.
 */
export function contentSecurityPolicy(options: { clerkFrontendApiOrigin?: string | undefined } = {}): string {
  const frontendApi = options.clerkFrontendApiOrigin ? ` ${options.clerkFrontendApiOrigin}` : "";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${frontendApi}`,
    "font-src 'self'",
    `connect-src 'self'${frontendApi}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The policy of the built-in provider (no outside origin at all). */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

const OTHER_SECURITY_HEADERS: Record<string, string> = {
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

export function securityHeaders(options: { clerkFrontendApiOrigin?: string | undefined } = {}): MiddlewareHandler {
  const headers: Record<string, string> = { "Content-Security-Policy": contentSecurityPolicy(options), ...OTHER_SECURITY_HEADERS };
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    c.res.headers.delete("X-Powered-By");
  };
}
