import { describe, expect, it } from "vitest";
import { averageProductsPerArtist, periodFromParam, periodTotals } from "./analytics-figures";

describe("analytics figures", () => {
  it("averages products per active artist, rounded, 0 without active artists", () => {
    expect(averageProductsPerArtist(3, 2)).toBe(2);
    expect(averageProductsPerArtist(10, 4)).toBe(3);
    expect(averageProductsPerArtist(7, 0)).toBe(0);
  });

  it("reads the period from the URL, falling back to 30", () => {
    expect(periodFromParam("7")).toBe(7);
    expect(periodFromParam("90")).toBe(90);
    expect(periodFromParam(null)).toBe(30);
    expect(periodFromParam("14")).toBe(30);
  });

  it("sums the period to exact cents", () => {
    const day = (total_revenue: number, total_fees: number, total_orders: number) => ({ date: "2026-01-01", total_revenue, total_fees, total_orders });
    expect(periodTotals([day(0.1, 0.01, 1), day(0.2, 0.02, 2)])).toEqual({ revenue: 0.3, fees: 0.03, orders: 3 });
  });
});
