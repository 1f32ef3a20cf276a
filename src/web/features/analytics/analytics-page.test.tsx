import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AnalyticsResponse, SalesResponse, TopProductsResponse, TopVendorsResponse } from "@contract/analytics";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import AnalyticsPage from "./analytics-page";

// The chart itself is recharts' business; here it only has to receive the period's days.
vi.mock("./revenue-chart", () => ({
  default: ({ points, unit }: { points: Array<{ label: string }>; unit: string }) => (
    <div data-testid="revenue-chart">
      {points.length} {unit} charted: {points.map((p) => p.label).join(" ")}
    </div>
  ),
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

const topProducts = (days: number): TopProductsResponse => ({
  days,
  limit: 10,
  from: "2026-11-01",
  to: "2026-11-30",
  products: [{ rank: 1, productId: "p1", productName: "Blue Vase", vendorId: "v1", vendorName: "Moonlit Ceramics", revenue: 1234.5, orders: 12, units: 15 }],
});
const topVendors = (days: number): TopVendorsResponse => ({
  days,
  limit: 10,
  from: "2026-11-01",
  to: "2026-11-30",
  vendors: [{ rank: 1, vendorId: "v1", vendorName: "Moonlit Ceramics", vendorSlug: "moonlit-ceramics", revenue: 2000, orders: 20, units: 25 }],
});
const bucket = (start: string, end: string, revenue: number) => ({ start, end, revenue, orders: 1, fees: revenue * 0.015, averageOrderValue: revenue });
const weekly: SalesResponse = {
  days: 30,
  groupBy: "week",
  from: "2026-11-01",
  to: "2026-11-30",
  buckets: [
    bucket("2026-11-01", "2026-11-01", 10),
    bucket("2026-11-02", "2026-11-08", 70),
    bucket("2026-11-09", "2026-11-15", 70),
    bucket("2026-11-16", "2026-11-22", 70),
    bucket("2026-11-23", "2026-11-29", 70),
    bucket("2026-11-30", "2026-11-30", 10),
  ],
  totals: { revenue: 300, orders: 6, fees: 4.5, averageOrderValue: 50 },
};

/** Every call of the screen, answered by its path. */
function answer(url: string, sales = true) {
  const u = new URL(url, "http://x");
  const days = Number(u.searchParams.get("days"));
  if (u.pathname === "/api/admin/analytics") return json(response(days, sales));
  if (u.pathname === "/api/admin/analytics/top-products") return json(sales ? topProducts(days) : { ...topProducts(days), products: [] });
  if (u.pathname === "/api/admin/analytics/top-vendors") return json(sales ? topVendors(days) : { ...topVendors(days), vendors: [] });
  if (u.pathname === "/api/admin/analytics/sales") return json(weekly);
  return json({ error: { code: "not_found", message: "Not found" } }, 404, "Not Found");
}

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: "/analytics", Component: AnalyticsPage }], { initialEntries: [path] });
  renderWithQuery(<RouterProvider router={router} />);
  return router;
}

const group = (name: string) => screen.getByRole("group", { name });

describe("AnalyticsPage", () => {
  it("defaults to 30 days and shows the cards, statistics, chart and the first 10 days", async () => {
    const fetch = mockFetch((url) => answer(url));
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

    expect(await screen.findByTestId("revenue-chart")).toHaveTextContent("30 days charted: 11-01");
    const rows = within(screen.getByRole("table", { name: "Daily Breakdown" }))
      .getAllByRole("row")
      .slice(1);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toHaveTextContent("Nov 1, 2026");
    expect(rows[0]).toHaveTextContent("$100.00");
    expect(rows[0]).toHaveTextContent("$1.50");
    expect(rows[9]).toHaveTextContent("Nov 10, 2026");
  });

  it("switches the period, keeping it in the URL", async () => {
    const fetch = mockFetch((url) => answer(url));
    const router = renderAt("/analytics?days=7");
    await screen.findByRole("group", { name: "Total Revenue" });
    expect(String(fetch.mock.calls[0]?.[0])).toBe("/api/admin/analytics?days=7");
    await userEvent.click(screen.getByRole("button", { name: "90 days" }));
    await waitFor(() => expect(router.state.location.search).toBe("?days=90"));
    expect(screen.getByRole("button", { name: "90 days" })).toHaveAttribute("aria-pressed", "true");
    expect(await screen.findByText(/^90 days charted/)).toBeInTheDocument();
    expect(fetch.mock.calls.map((c) => String(c[0]))).toContain("/api/admin/analytics?days=90");
  });

  it("shows the period's top products and artists, linking to the product and the artist", async () => {
    const fetch = mockFetch((url) => answer(url));
    renderAt("/analytics?days=90");
    const products = await screen.findByRole("table", { name: "Top Products" });
    expect(within(products).getByRole("link", { name: "Blue Vase" })).toHaveAttribute("href", "/products?product=p1");
    expect(within(products).getByRole("link", { name: "Moonlit Ceramics" })).toHaveAttribute("href", "/vendors/v1");
    expect(within(products).getAllByRole("row")[1]).toHaveTextContent("$1,234.50");
    const vendors = screen.getByRole("table", { name: "Top Artists" });
    expect(within(vendors).getByRole("link", { name: "Moonlit Ceramics" })).toHaveAttribute("href", "/vendors/v1");
    const asked = fetch.mock.calls.map((c) => String(c[0]));
    expect(asked).toContain("/api/admin/analytics/top-products?days=90&limit=10");
    expect(asked).toContain("/api/admin/analytics/top-vendors?days=90&limit=10");
  });

  it("groups the chart by week or month from the sales call, keeping the choice in the URL", async () => {
    const fetch = mockFetch((url) => answer(url));
    const router = renderAt("/analytics");
    expect(await screen.findByText(/30 days charted/)).toBeInTheDocument();
    expect(screen.getByText("Daily revenue and platform fees, last 30 days")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Week" }));
    await waitFor(() => expect(router.state.location.search).toBe("?groupBy=week"));
    expect(await screen.findByText(/6 weeks charted: 11-01 11-02/)).toBeInTheDocument();
    expect(screen.getByText("Weekly revenue and platform fees, last 30 days")).toBeInTheDocument();
    expect(fetch.mock.calls.map((c) => String(c[0]))).toContain("/api/admin/analytics/sales?days=30&groupBy=week");
    await userEvent.click(screen.getByRole("button", { name: "Day" }));
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("shows the empty text for a period without sales", async () => {
    mockFetch((url) => answer(url, false));
    renderAt("/analytics?days=7");
    expect(await screen.findAllByText("No data available for the selected period")).toHaveLength(2);
    expect(await screen.findAllByText("No sales in the selected period")).toHaveLength(2);
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
