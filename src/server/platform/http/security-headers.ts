import type { MiddlewareHandler } from "hono";
import { type IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from "node:http";
import { PRESET_ANSWER_HEADER, nodeResponse } from "./exchange-headers.ts";

/**
 * Headers on every response, API and static alike. No inline script is allowed; inline styles
 * are, because Radix and Recharts position elements with style attributes (and Clerk's sign-in
 * form styles itself the same way).
 *
 * Under Clerk (AUTH_PROVIDER=clerk) the browser talks to the instance's Frontend API, so its origin
 * joins `connect-src` and `img-src`, and nothing else: Clerk's JS and UI are bundled from npm and
 * served by us, so `script-src` stays `'self'`.
 *
 * The storefront's origin (STOREFRONT_URL) joins `img-src` only: an artist's application shows its
 * sample images from there, and an image from any other host is refused by the server when the
 * application arrives and by the browser here (docs/product.md §20.2).
 */
/** The origin of the storefront's URL: the one host application images come from (docs/product.md §20.2). */
export function storefrontOrigin(storefrontUrl: string): string {
  return new URL(storefrontUrl).origin;
}

export interface SecurityHeaderOptions {
  clerkFrontendApiOrigin?: string | undefined;
  storefrontImageOrigin?: string | undefined;
}

export function contentSecurityPolicy(options: SecurityHeaderOptions = {}): string {
  const frontendApi = options.clerkFrontendApiOrigin ? ` ${options.clerkFrontendApiOrigin}` : "";
  const storefrontImages = options.storefrontImageOrigin ? ` ${options.storefrontImageOrigin}` : "";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${frontendApi}${storefrontImages}`,
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

function securityHeaderEntries(options: SecurityHeaderOptions): Array<[string, string]> {
  return Object.entries({ "Content-Security-Policy": contentSecurityPolicy(options), ...OTHER_SECURITY_HEADERS });
}

/** Marks responses of SecureServerResponse: the middleware then has nothing left to do. */
const ADDS_SECURITY_HEADERS = Symbol("adds security headers");

/**
 * The server's node:http response class (serve.ts passes it to @hono/node-server): it adds the
 * security headers to the header object every response is written with (`writeHead`), so a request
 * costs no Headers operations for them. Setting seven headers on each response's web `Headers`
 * (validation, then a sorted copy when written) was ~10 % of a cached dashboard request's CPU
 * (bench/profile.ts). A header the app already set wins.
 */
export function secureServerResponse(options: SecurityHeaderOptions = {}): typeof ServerResponse {
  const securityEntries = securityHeaderEntries(options).map(([name, value]) => [name.toLowerCase(), value] as const);
  class SecureServerResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
    /** Headers taken before the answer (exchange-headers.ts), by lower-case name: [name, value]. */
    #preset: Map<string, readonly [string, string]> | undefined;

    [PRESET_ANSWER_HEADER](name: string, value: string): void {
      (this.#preset ??= new Map()).set(name.toLowerCase(), [name, value]);
    }

    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- node's overloads: (status, headers?) | (status, message, headers?)
    override writeHead(statusCode: number, ...rest: any[]): this {
      const headers: unknown = typeof rest[0] === "string" ? rest[1] : rest[0];
      if (headers && typeof headers === "object" && !Array.isArray(headers)) {
        // The answer's record is written as it is (node's fast path: no header store); what it
        // lacks is added to it. Names in a record may have any case.
        const record = headers as Record<string, unknown>;
        const taken = new Set<string>();
        for (const name in record) taken.add(name.toLowerCase());
        if (this.#preset) for (const [lower, [name, value]] of this.#preset) if (!taken.has(lower) && !this.hasHeader(lower)) record[name] = value;
        for (const [name, value] of securityEntries) if (!taken.has(name) && !this.hasHeader(name)) record[name] = value;
      } else {
        // No record (node's implicit header, an empty answer) or a raw [name, value, …] array (none
        // of ours): through node's header store, where the answer's values come first.
        if (this.#preset) for (const [lower, [name, value]] of this.#preset) if (!this.hasHeader(lower)) this.setHeader(name, value);
        for (const [name, value] of securityEntries) if (!this.hasHeader(name)) this.setHeader(name, value);
      }
      this.#preset = undefined;
      return super.writeHead(statusCode, ...(rest as [string, OutgoingHttpHeaders]));
    }
  }
  Object.defineProperty(SecureServerResponse.prototype, ADDS_SECURITY_HEADERS, { value: true });
  return SecureServerResponse as unknown as typeof ServerResponse;
}

/**
 * The security headers of every answer. Served by node:http with SecureServerResponse (production),
 * they are written with the response and this only passes through; otherwise (in-process requests
 * in tests, another server) they are set here on the answer.
 */
export function securityHeaders(options: SecurityHeaderOptions = {}): MiddlewareHandler {
  const entries = securityHeaderEntries(options);
  const setAfterwards: MiddlewareHandler = async (c, next) => {
    await next();
    for (const [name, value] of entries) c.res.headers.set(name, value);
  };
  // Passing through is a plain call: an async wrapper would cost every request a promise for nothing.
  return (c, next) => ((nodeResponse(c) as Record<symbol, unknown> | undefined)?.[ADDS_SECURITY_HEADERS] === true ? next() : setAfterwards(c, next));
}
