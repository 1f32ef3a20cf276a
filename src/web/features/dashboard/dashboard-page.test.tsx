import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AttentionResponse, DashboardStats } from "@contract/dashboard";
import type { FeaturedArtistResponse } from "@contract/featured-artist";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import DashboardPage from "./dashboard-page";

/** The dashboard inside a router (its quick actions navigate to /financials, /analytics and /communications). */
function renderDashboard() {
  const router = createMemoryRouter(
    [
      { path: "/", element: <DashboardPage /> },
      { path: "/financials", element: <p>Financials screen</p> },
      { path: "/analytics", element: <p>Analytics screen</p> },
      { path: "/communications", element: <p>Communications screen</p> },
      { path: "/vendors", element: <p>Vendors screen</p> },
      { path: "/errors", element: <p>Errors screen</p> },
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

const attention: AttentionResponse = {
  checkedAt: "2026-12-01T12:00:00.000Z",
  items: [
    { key: "payouts_failed", label: "Failed payouts", count: 2, capped: false, detail: null, severity: "critical", href: "/financials?payouts.status=failed" },
    {
      key: "errors_spike",
      label: "Spike of errors in the last 24 hours",
      count: 1000,
      capped: true,
      detail: "3 a day on average over the 7 days before",
      severity: "critical",
      href: "/errors?level=error",
    },
  ],
};
const slot = (vendorName: string, startsAt: string, endsAt: string) => ({
  id: vendorName,
  vendorId: `v-${vendorName}`,
  vendorName,
  durationDays: 7,
  startsAt,
  endsAt,
  setBy: "boss@hki.global",
  endedAt: null,
  endReason: null,
});
const featured: FeaturedArtistResponse = {
  current: slot("Ada Prints", "2026-11-28T12:00:00.000Z", "2026-12-05T12:00:00.000Z"),
  upcoming: [slot("Bo Ceramics", "2026-12-05T12:00:00.000Z", "2026-12-10T12:00:00.000Z")],
  history: [],
};

/** The dashboard's calls, each answered by its path (`stats` may be replaced). */
function answer(url: string, statsAnswer: () => Response = () => json(stats)): Response {
  if (url === "/api/admin/dashboard/stats") return statsAnswer();
  if (url === "/api/admin/dashboard/attention") return json(attention);
  if (url === "/api/admin/featured-artist") return json(featured);
  if (url === "/api/config") return json({ storefrontUrl: "http://store.test/", authProviderName: "built-in", authProvider: "local" });
  return json({ error: { code: "not_found", message: `no ${url}` } }, 404, "Not Found");
}
const statsCalls = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter((c) => String(c[0]) === "/api/admin/dashboard/stats").length;

describe("DashboardPage", () => {
  it("waits 100 ms before loading, then shows every card with the product's texts", async () => {
    const fetch = mockFetch((url) => answer(url));
    const started = Date.now();
    renderDashboard();
    expect(statsCalls(fetch)).toBe(0);
    await screen.findByRole("group", { name: "Total Artists" });
    expect(statsCalls(fetch)).toBe(1);
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

    // The row of quick actions and recent activity follows once 'Needs Attention' and 'Featured Artist' have answered.
    for (const name of ["Send Announcement", "View Analytics", "Process Payouts"]) {
      expect(await screen.findByRole("button", { name })).toBeInTheDocument();
    }
    // The storefront's invite-code manager, in a new tab (as /invite-codes).
    const invite = await screen.findByRole("link", { name: /Create Invite Code/ });
    expect(invite).toHaveAttribute("href", "http://store.test/admin/invite-codes");
    expect(invite).toHaveAttribute("target", "_blank");
    const items = within(screen.getByRole("list", { name: "Recent Activity" })).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringContaining("Sale completed: House Mug"),
      expect.stringContaining("Product added: Sunset Canvas"),
      expect.stringContaining("New artist joined: HKI House"),
    ]);
    expect(items[0]?.textContent).toContain("Dec 1, 2026");
  });

  it("needs attention: each item with its count, linking to its filtered list; a capped count shows '+'", async () => {
    mockFetch((url) => answer(url));
    const { router } = renderDashboard();
    const list = await screen.findByRole("list", { name: "Needs Attention" });
    const links = within(list).getAllByRole("link");
    expect(links.map((a) => [a.getAttribute("href"), a.textContent])).toEqual([
      ["/financials?payouts.status=failed", "Failed payouts2"],
      ["/errors?level=error", "Spike of errors in the last 24 hours3 a day on average over the 7 days before1,000+"],
    ]);
    await userEvent.click(links[1]!);
    await waitFor(() => expect(router.state.location.pathname).toBe("/errors"));
    expect(router.state.location.search).toBe("?level=error");
  });

  it("the featured artist: who, until when, who is next, and 'Change' leads to the vendors", async () => {
    mockFetch((url) => answer(url));
    const { router } = renderDashboard();
    const featuredCard = await screen.findByRole("region", { name: "Featured Artist" });
    await within(featuredCard).findByRole("link", { name: "Ada Prints" });
    expect(within(featuredCard).getByRole("link", { name: "Ada Prints" })).toHaveAttribute("href", "/vendors/v-Ada Prints");
    expect(featuredCard.textContent).toContain("Featured until");
    expect(within(featuredCard).getByRole("link", { name: "Bo Ceramics" })).toBeInTheDocument();
    await userEvent.click(within(featuredCard).getByRole("link", { name: "Change" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/vendors"));
  });

  it.each([
    ["View Analytics", "/analytics", ""],
    ["Send Announcement", "/communications", "?compose=1"],
  ])("'%s' goes to %s", async (name, path, search) => {
    mockFetch((url) => answer(url));
    const { router } = renderDashboard();
    await userEvent.click(await screen.findByRole("button", { name }));
    await waitFor(() => expect(router.state.location.pathname).toBe(path));
    expect(router.state.location.search).toBe(search);
  });

  it("'Process Payouts' opens Financials with the payout confirmation", async () => {
    mockFetch((url) => answer(url));
    const { router } = renderDashboard();
    await userEvent.click(await screen.findByRole("button", { name: "Process Payouts" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/financials"));
    expect(router.state.location.search).toBe("?confirm=payouts");
  });

  it("shows 'No recent activity' when there is none", async () => {
    mockFetch((url) => answer(url, () => json({ ...stats, recentActivity: [] })));
    renderDashboard();
    expect(await screen.findByText("No recent activity")).toBeInTheDocument();
  });

  it("shows the load error with the message and retries on 'Try Again'", async () => {
    let calls = 0;
    mockFetch((url) => answer(url, () => (++calls === 1 ? json({ error: { code: "internal_error", message: "boom" } }, 500, "Internal Server Error") : json(stats))));
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
