import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AnalyticsResponse, DailyMetric } from "@contract/analytics";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import AnalyticsPage from "./analytics-page";

// The chart itself is recharts' business; here it only has to receive the period's days.
vi.mock("./revenue-chart", () => ({
  default: ({ metrics }: { metrics: DailyMetric[] }) => <div data-testid="revenue-chart">{metrics.length} days charted</div>,
}));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function response(days: number, sales = true): AnalyticsResponse {
  const metrics = Array.from({ length: days }, (_, i) => ({
    date: new Date(Date.UTC(2026, 10, 1 + i)).toISOString().slice(0, 10),
    total_revenue: sales ? 100 * (i + 1) : 0,
    total_orders: sales ? i + 1 : 0,
    total_fees: sales ? 1.5 * (i + 1) : 0,
  }));
  return {
    metrics,
    vendorStats: { total_vendors: 12, active_vendors: 8, new_vendors: 3 },
    productStats: { total_products: 50, new_products: 7 },
    platformFeePercentage: 1.5,
  };
}

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: "/analytics", Component: AnalyticsPage }], { initialEntries: [path] });
  renderWithQuery(<RouterProvider router={router} />);
  return router;
}

const group = (name: string) => screen.getByRole("group", { name });

describe("AnalyticsPage", () => {
  it("defaults to 30 days and shows the cards, statistics, chart and the first 10 days", async () => {
    const fetch = mockFetch((url) => json(response(Number(new URL(url, "http://x").searchParams.get("days")))));
    renderAt("/analytics");
    await screen.findByRole("group", { name: "Total Revenue" });
    expect(String(fetch.mock.calls[0]?.[0])).toBe("/api/admin/analytics?days=30");
    expect(screen.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "false");

    // Sums over 30 days: 100 × (1 + … + 30) = 46,500; fees 1.5 × 465; orders 465.
    expect(within(group("Total Revenue")).getByText("$46,500.00")).toBeInTheDocument();
    expect(within(group("Platform Fees")).getByText("$697.50")).toBeInTheDocument();
    expect(within(group("Platform Fees")).getByText("1.5% of sales")).toBeInTheDocument();
    expect(within(group("Total Orders")).getByText("465")).toBeInTheDocument();
    expect(within(group("Active Artists")).getByText("8")).toBeInTheDocument();
    expect(within(group("Active Artists")).getByText("3 new this month")).toBeInTheDocument();

    expect(within(group("Artist Statistics")).getByText("12")).toBeInTheDocument();
    expect(within(group("Product Statistics")).getByText("50")).toBeInTheDocument();
    expect(within(group("Product Statistics")).getByText("7")).toBeInTheDocument();
    // round(50 / 8) = 6.
    expect(within(group("Product Statistics")).getByText("Average per Artist").nextSibling).toHaveTextContent("6");

    expect(await screen.findByTestId("revenue-chart")).toHaveTextContent("30 days charted");
    const rows = within(screen.getByRole("table", { name: "Daily Breakdown" })).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toHaveTextContent("Nov 1, 2026");
    expect(rows[0]).toHaveTextContent("$100.00");
    expect(rows[0]).toHaveTextContent("$1.50");
    expect(rows[9]).toHaveTextContent("Nov 10, 2026");
  });

  it("switches the period, keeping it in the URL", async () => {
    const fetch = mockFetch((url) => json(response(Number(new URL(url, "http://x").searchParams.get("days")))));
    const router = renderAt("/analytics?days=7");
    await screen.findByRole("group", { name: "Total Revenue" });
    expect(String(fetch.mock.calls[0]?.[0])).toBe("/api/admin/analytics?days=7");
    await userEvent.click(screen.getByRole("button", { name: "90 days" }));
    await waitFor(() => expect(router.state.location.search).toBe("?days=90"));
    expect(screen.getByRole("button", { name: "90 days" })).toHaveAttribute("aria-pressed", "true");
    expect(await screen.findByText("90 days charted")).toBeInTheDocument();
    expect(fetch.mock.calls.map((c) => String(c[0]))).toContain("/api/admin/analytics?days=90");
  });

  it("shows the empty text for a period without sales", async () => {
    mockFetch(() => json(response(7, false)));
    renderAt("/analytics?days=7");
    expect(await screen.findAllByText("No data available for the selected period")).toHaveLength(2);
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("logs a failure to the console and shows an error state, not numbers", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    mockFetch(() => json({ error: { code: "internal_error", message: "boom" } }, 500, "Internal Server Error"));
    renderAt("/analytics");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("API Error: Internal Server Error");
    expect(consoleError).toHaveBeenCalledWith("Failed to load analytics:", expect.any(Error));
    expect(screen.queryByRole("group", { name: "Total Revenue" })).toBeNull();
  });
});
