import { describe, expect, it } from "vitest";
import { countOf, formatCount, formatCurrency, formatDate, formatRelativeTime, levelColorClasses, roundCents } from "./format";

const now = new Date("2026-03-10T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const H = 3_600_000;

describe("formatCurrency", () => {
  it("formats US dollars", () => {
    expect(formatCurrency(1234.5)).toBe("$1,234.50");
    expect(formatCurrency(0)).toBe("$0.00");
    expect(formatCurrency(Number.NaN)).toBe("$0.00");
  });
});

describe("counts and cents", () => {
  it("separates thousands, names the noun in the singular for exactly one, rounds sums to cents", () => {
    expect(formatCount(50_000)).toBe("50,000");
    expect(countOf(1, "vendor")).toBe("1 vendor");
    expect(countOf(1_000, "staff member")).toBe("1,000 staff members");
    expect(countOf(2, "entry", "entries")).toBe("2 entries");
    expect(roundCents(0.1 + 0.2)).toBe(0.3);
  });
});

describe("formatDate", () => {
  it("formats a date and tolerates bad input", () => {
    expect(formatDate("2026-03-10T12:00:00Z")).toMatch(/Mar 10, 2026/);
    expect(formatDate("not a date")).toBe("—");
  });
});

describe("formatRelativeTime", () => {
  it("says 'Just now' under one hour", () => {
    expect(formatRelativeTime(ago(0), now)).toBe("Just now");
    expect(formatRelativeTime(ago(H - 1), now)).toBe("Just now");
  });
  it("counts hours under 24 hours", () => {
    expect(formatRelativeTime(ago(H), now)).toBe("1h ago");
    expect(formatRelativeTime(ago(23 * H + 59 * 60_000), now)).toBe("23h ago");
  });
  it("counts days under 7 days", () => {
    expect(formatRelativeTime(ago(24 * H), now)).toBe("1d ago");
    expect(formatRelativeTime(ago(7 * 24 * H - 1), now)).toBe("6d ago");
  });
  it("shows the date from 7 days on", () => {
    const old = ago(7 * 24 * H);
    expect(formatRelativeTime(old, now)).toBe(formatDate(old));
  });
});

describe("levelColorClasses", () => {
  it("uses red, yellow and blue", () => {
    expect(levelColorClasses("error")).toContain("red");
    expect(levelColorClasses("warning")).toContain("yellow");
    expect(levelColorClasses("info")).toContain("blue");
  });
});
