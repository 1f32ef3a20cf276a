import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DashboardStats } from "@contract/dashboard";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import TestErrorPage from "./test-error-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("TestErrorPage", () => {
  it("posts to the debug endpoint and shows the error that came back", async () => {
    const fetch = mockFetch(() => json({ error: { code: "test_error", message: "Test error logged" } }, 418, "I'm a Teapot"));
    renderWithQuery(<TestErrorPage />);
    await userEvent.click(screen.getByRole("button", { name: "Test Error Logging" }));
    const result = screen.getByRole("region", { name: "Test Error Logging result" });
    expect(await within(result).findByText("Error")).toBeInTheDocument();
    expect(result).toHaveTextContent('API Error: I\'m a Teapot - {"error":{"code":"test_error","message":"Test error logged"}}');
    expect(String(fetch.mock.calls[0]?.[0])).toBe("/api/debug/test-error");
    expect(fetch.mock.calls[0]?.[1]?.method).toBe("POST");
  });

  it("'Create Invalid Product' only fetches the dashboard stats and shows them", async () => {
    const stats: DashboardStats = {
      totalVendors: 4,
      activeVendors: 3,
      monthlyRecurring: 89.97,
      totalProducts: 12,
      platformFees: 4.5,
      todaySales: 0,
      weekSales: 120,
      recentActivity: [],
      platformFeePercentage: 1.5,
      trends: { platformFees: null, todaySales: null, weekSales: 10 },
    };
    const fetch = mockFetch(() => json(stats));
    renderWithQuery(<TestErrorPage />);
    await userEvent.click(screen.getByRole("button", { name: "Create Invalid Product" }));
    const result = screen.getByRole("region", { name: "Create Invalid Product result" });
    expect(await within(result).findByText("Success")).toBeInTheDocument();
    expect(result).toHaveTextContent('"totalVendors": 4');
    expect(String(fetch.mock.calls[0]?.[0])).toBe("/api/admin/dashboard/stats");
    expect(fetch.mock.calls[0]?.[1]?.method).toBe("GET");
  });
});
