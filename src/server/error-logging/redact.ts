/**
 * Secret removal for everything written to error_logs or printed. Keys are matched by name anywhere
 * in nested context; free text is scrubbed of bearer tokens and credential-looking pairs.
 */
const SECRET_KEY_PATTERN = /pass(word)?|passwd|secret|token|authorization|cookie|api[-_]?key|session|credential|private[-_]?key|signature/i;
export const REDACTED = "[redacted]";

export function isSecretKey(key: string): boolean {
  return SECRET_KEY_PATTERN.test(key);
}

const MAX_DEPTH = 6;
const MAX_STRING = 2000;

export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value).slice(0, MAX_STRING);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[truncated]";
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>).slice(0, 100)) {
    out[key] = isSecretKey(key) ? REDACTED : redactValue(v, depth + 1);
  }
  return out;
}

/** Scrubs "Bearer xyz", "password=xyz", `"token":"xyz"` and similar out of free text. */
export function redactText(text: string): string {
  return text
    .replace(/(bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`)
    .replace(/((?:pass(?:word)?|passwd|secret|token|api[-_]?key|authorization|cookie|session)[a-z_-]*["']?\s*[:=]\s*["']?)[^\s"'&,;}]+/gi, `$1${REDACTED}`);
}

/** Removes secret-named query parameters from a path such as "/api/x?token=abc&page=2". */
export function redactUrlPath(pathWithQuery: string): string {
  const q = pathWithQuery.indexOf("?");
  if (q < 0) return pathWithQuery;
  const params = new URLSearchParams(pathWithQuery.slice(q + 1));
  for (const key of [...params.keys()]) if (isSecretKey(key)) params.set(key, REDACTED);
  const query = params.toString();
  return pathWithQuery.slice(0, q) + (query ? `?${query.replaceAll("%5Bredacted%5D", REDACTED)}` : "");
}
