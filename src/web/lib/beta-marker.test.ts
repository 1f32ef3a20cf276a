import { describe, expect, it } from "vitest";
import { BETA_ACCESS_VALIDITY_MS, BETA_MARKER_KEY, hasValidBetaMarker, storeBetaMarker } from "./beta-marker";

const now = 1_800_000_000_000;

describe("beta marker", () => {
  it("accepts a fresh marker", () => {
    storeBetaMarker(now - 1000);
    expect(hasValidBetaMarker(now)).toBe(true);
    expect(localStorage.getItem(BETA_MARKER_KEY)).toBe(JSON.stringify({ timestamp: now - 1000 }));
  });

  it("accepts a marker just under 24 hours old", () => {
    storeBetaMarker(now - BETA_ACCESS_VALIDITY_MS + 1);
    expect(hasValidBetaMarker(now)).toBe(true);
  });

  it("rejects and removes an expired marker", () => {
    storeBetaMarker(now - BETA_ACCESS_VALIDITY_MS);
    expect(hasValidBetaMarker(now)).toBe(false);
    expect(localStorage.getItem(BETA_MARKER_KEY)).toBeNull();
  });

  it("rejects a missing marker", () => {
    expect(hasValidBetaMarker(now)).toBe(false);
  });

  it.each(["not json", "{}", '{"timestamp":"yesterday"}', "null", "42"])("rejects and removes a corrupt marker %s", (raw) => {
    localStorage.setItem(BETA_MARKER_KEY, raw);
    expect(hasValidBetaMarker(now)).toBe(false);
    expect(localStorage.getItem(BETA_MARKER_KEY)).toBeNull();
  });

  it("stores the current time by default", () => {
    const before = Date.now();
    storeBetaMarker();
    const stored = JSON.parse(localStorage.getItem(BETA_MARKER_KEY) ?? "{}") as { timestamp: number };
    expect(stored.timestamp).toBeGreaterThanOrEqual(before);
    expect(hasValidBetaMarker()).toBe(true);
  });
});
