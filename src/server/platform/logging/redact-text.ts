/**
 * The free-text half of the one redactor (error-recorder/redact.ts holds the request rules and
 * re-exports this): what every log line (logger.ts) and written-down row goes through. It sits
 * with the log and imports nothing, so every module may log, and the cluster supervisor's log
 * (cluster-primary.ts) needs no endpoint definitions.
 *
 * Free text (messages, stack traces, user agents) is scrubbed of bearer tokens, credential-looking
 * pairs, JWTs, provider keys and long token-shaped runs. Objects lose the values of secret-named
 * keys at any depth.
 */
export const REDACTED = "[redacted]";

const SECRET_KEY_PATTERN = /pass(word)?|passwd|secret|token|authorization|cookie|api[-_]?key|session|credential|private[-_]?key|signature/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY_PATTERN.test(key);
}

const MAX_DEPTH = 6;
const MAX_STRING = 2000;

/**
 * A run of URL-safe characters as long as the tokens the server hands out (32 random bytes in
 * base64url are 43 characters; a SHA-256 in hex is 64). Shorter runs are ordinary words and slugs.
 */
const TOKEN_RUN = /[A-Za-z0-9_-]{32,}/g;
/** Ids (UUIDs) are as long, but they name rows, not secrets: they stay. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
/** Payment-provider secrets (Stripe's secret, restricted and webhook keys). */
const PROVIDER_KEY = /\b(?:sk|rk|whsec)_(?:test_|live_)?[A-Za-z0-9]{8,}/g;

function replaceTokenRuns(text: string): string {
  return text.replace(TOKEN_RUN, (run) => (UUID.test(run) ? run : REDACTED));
}

/** Does this piece of a path (or a query key) look like a token the server hands out? */
export function looksLikeToken(text: string): boolean {
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // A malformed escape is judged as sent.
  }
  return replaceTokenRuns(decoded) !== decoded || new RegExp(JWT.source).test(decoded) || new RegExp(PROVIDER_KEY.source).test(decoded);
}

/**
 * An object as it may be written down: a secret-named key loses its value, at any depth, unless the
 * value is a number or a flag (credentials are text: `sessionsRevoked: 3` is a count, not a secret);
 * strings are scrubbed as free text.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value).slice(0, MAX_STRING);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[truncated]";
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>).slice(0, 100)) {
    const harmless = v === null || typeof v === "number" || typeof v === "boolean";
    out[key] = isSecretKey(key) && !harmless ? REDACTED : redactValue(v, depth + 1);
  }
  return out;
}

/** Scrubs "Bearer xyz", "password=xyz", `"token":"xyz"`, JWTs, provider keys and token-shaped runs out of free text. */
export function redactText(text: string): string {
  return replaceTokenRuns(
    text
      .replace(/(bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`)
      .replace(/((?:pass(?:word)?|passwd|secret|token|api[-_]?key|authorization|cookie|session)[a-z_-]*["']?\s*[:=]\s*["']?)[^\s"'&,;}]+/gi, `$1${REDACTED}`)
      .replace(JWT, REDACTED)
      .replace(PROVIDER_KEY, REDACTED),
  );
}

/** A user agent as it may be stored: free text, so scrubbed like any (a client can send anything there). */
export function redactUserAgent(userAgent: string): string {
  return redactText(userAgent).slice(0, 500);
}
