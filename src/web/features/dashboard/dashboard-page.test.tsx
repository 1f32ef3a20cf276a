import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DashboardStats } from "@contract/dashboard";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import DashboardPage from "./dashboard-page";

/** The dashboard inside a router (its 'Process Payouts' navigates to /financials). */
function renderDashboard() {
  const router = createMemoryRouter(
    [
      { path: "/", element: <DashboardPage /> },
      { path: "/financials", element: <p>Financials screen</p> },
    ],
    { initialEntries: ["/"] },
  );
  return { router, ...renderWithQuery(<RouterProvider router={router} />) };
}
import { activityLabel, formatTrend } from "./dashboard-text";

afterEach(() => {
  vi.unstubAllGlobals();
});

const stats: DashboardStats = {
  totalVendors: 3,
  activeVendors: 2,
  monthlyRecurring: 79.98,
  totalProducts: 2,
  platformFees: 5.9,
  todaySales: 260,
  weekSales: 1360.5,
  platformFeePercentage: 2.5,
  trends: { platformFees: 490, todaySales: -12.5, weekSales: null },
  recentActivity: [
    { type: "sale", name: "House Mug", timestamp: "2026-12-01T11:30:00.000Z" },
    { type: "product_added", name: "Sunset Canvas", timestamp: "2026-11-30T09:00:00.000Z" },
    { type: "vendor_joined", name: "HKI House", timestamp: "2026-11-29T08:00:00.000Z" },
  ],
};

const card = (title: string) => screen.getByRole("group", { name: title });

describe("DashboardPage", () => {
  it("waits 100 ms before loading, then shows every card with the product's texts", async () => {
    const fetch = mockFetch(() => json(stats));
    const started = Date.now();
    renderDashboard();
    expect(fetch).not.toHaveBeenCalled();
    await screen.findByRole("group", { name: "Total Artists" });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]?.[0])).toBe("/api/admin/dashboard/stats");
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);

    expect(within(card("Total Artists")).getByText("3")).toBeInTheDocument();
    expect(within(card("Total Artists")).getByText("2 active")).toBeInTheDocument();
    expect(within(card("Monthly Recurring")).getByText("$79.98")).toBeInTheDocument();
    expect(within(card("Monthly Recurring")).getByText("Subscription revenue")).toBeInTheDocument();
    expect(within(card("Total Products")).getByText("Listed items")).toBeInTheDocument();
    expect(within(card("Platform Fees (MTD)")).getByText("$5.90")).toBeInTheDocument();
    // The setting in force, not a hard-coded 1.5.
    expect(within(card("Platform Fees (MTD)")).getByText("2.5% transaction fees")).toBeInTheDocument();
    expect(within(card("Platform Fees (MTD)")).getByText("+490% vs same days last month")).toBeInTheDocument();
    expect(within(card("Today's Sales")).getByText("$260.00")).toBeInTheDocument();
    expect(within(card("Today's Sales")).getByText("Gross merchandise value")).toBeInTheDocument();
    expect(within(card("Today's Sales")).getByText("-12.5% vs yesterday")).toBeInTheDocument();
    expect(within(card("Week Sales")).getByText("$1,360.50")).toBeInTheDocument();
    expect(within(card("Week Sales")).getByText("Last 7 days")).toBeInTheDocument();
    // No previous week to compare with: no trend rather than a made-up one.
    expect(within(card("Week Sales")).queryByText(/vs previous/)).toBeNull();

    for (const name of ["Create Invite Code", "Send Announcement", "View Analytics", "Process Payouts"]) {
      expect(screen.getByRole("button", { name })).toBeInTheDocument();
    }
    const items = within(screen.getByRole("list", { name: "Recent Activity" })).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringContaining("Sale completed: House Mug"),
      expect.stringContaining("Product added: Sunset Canvas"),
      expect.stringContaining("New artist joined: HKI House"),
    ]);
    expect(items[0]?.textContent).toContain("Dec 1, 2026");
  });

  it("'Process Payouts' opens Financials with the payout confirmation", async () => {
    mockFetch(() => json(stats));
    const { router } = renderDashboard();
    await userEvent.click(await screen.findByRole("button", { name: "Process Payouts" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/financials"));
    expect(router.state.location.search).toBe("?confirm=payouts");
  });

  it("shows 'No recent activity' when there is none", async () => {
    mockFetch(() => json({ ...stats, recentActivity: [] }));
    renderDashboard();
    expect(await screen.findByText("No recent activity")).toBeInTheDocument();
  });

  it("shows the load error with the message and retries on 'Try Again'", async () => {
    let calls = 0;
    mockFetch(() => (++calls === 1 ? json({ error: { code: "internal_error", message: "boom" } }, 500, "Internal Server Error") : json(stats)));
    renderDashboard();
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Error loading dashboard")).toBeInTheDocument();
    expect(within(alert).getByText(/API Error: Internal Server Error/)).toBeInTheDocument();
    await userEvent.click(within(alert).getByRole("button", { name: "Try Again" }));
    await waitFor(() => expect(screen.getByRole("group", { name: "Total Artists" })).toBeInTheDocument());
    expect(calls).toBe(2);
  });
});

describe("dashboard texts", () => {
  it("labels activity types as docs/product.md §3 does", () => {
    expect(activityLabel("vendor_joined")).toBe("New artist joined:");
    expect(activityLabel("product_added")).toBe("Product added:");
    expect(activityLabel("sale")).toBe("Sale completed:");
    expect(activityLabel("anything")).toBe("Sale completed:");
  });

  it("signs trends", () => {
    expect(formatTrend(12.5)).toBe("+12.5%");
    expect(formatTrend(-3)).toBe("-3%");
    expect(formatTrend(0)).toBe("0%");
  });
});
