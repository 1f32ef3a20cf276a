/**
 * The private-beta marker (docs/product.md §1.1): localStorage key `beta-access` holding
 * `{"timestamp": <epoch ms>}`, valid for 24 hours. The password itself is only ever checked by the
 * server; the browser merely remembers that it passed.
 */
export const BETA_MARKER_KEY = "beta-access";
export const BETA_ACCESS_VALIDITY_MS = 86_400_000;

/** True when a marker younger than 24 h exists. An expired or unreadable marker is removed. */
export function hasValidBetaMarker(now: number = Date.now()): boolean {
  let raw: string | null;
  try {
    raw = localStorage.getItem(BETA_MARKER_KEY);
  } catch {
    return false;
  }
  if (raw === null) return false;

  const timestamp = parseTimestamp(raw);
  if (timestamp !== null && now - timestamp < BETA_ACCESS_VALIDITY_MS && timestamp <= now) return true;

  localStorage.removeItem(BETA_MARKER_KEY);
  return false;
}

export function storeBetaMarker(now: number = Date.now()): void {
  localStorage.setItem(BETA_MARKER_KEY, JSON.stringify({ timestamp: now }));
}

function parseTimestamp(raw: string): number | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== "object" || parsed === null) return null;
    const timestamp = (parsed as { timestamp?: unknown }).timestamp;
    return typeof timestamp === "number" && Number.isFinite(timestamp) ? timestamp : null;
  } catch {
    return null;
  }
}
