import { describe, expect, it } from "vitest";
import { formatDate, formatRelativeTime } from "@web/lib/format";
import { formatContext } from "./error-detail-dialog";

// The relative-time buckets of docs/product.md §2.5 at their edges, with an injected "now" (no real clock).
const now = new Date("2026-11-22T12:00:00.000Z");
const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe("error row relative time", () => {
  it.each([
    [59 * MIN, "Just now"],
    [H, "1h ago"],
    [23 * H, "23h ago"],
    [24 * H, "1d ago"],
    [6 * D, "6d ago"],
  ])("%d ms ago reads %s", (ms, text) => {
    expect(formatRelativeTime(ago(ms), now)).toBe(text);
  });

  it("shows the date from 7 days on", () => {
    expect(formatRelativeTime(ago(7 * D), now)).toBe(formatDate(ago(7 * D)));
    expect(formatRelativeTime(ago(7 * D), now)).toMatch(/Nov 15, 2026/);
  });
});

describe("formatContext", () => {
  it("pretty-prints JSON and shows invalid JSON raw", () => {
    expect(formatContext('{"a":1,"b":[2]}')).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    expect(formatContext("{not json")).toBe("{not json");
    expect(formatContext(null)).toBeNull();
  });
});
