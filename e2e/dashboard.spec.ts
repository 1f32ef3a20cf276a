import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { DashboardStats } from "../src/contract/dashboard";
import { E2E, openAsAdmin } from "./helpers";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** The stats as the API answers them now, read with an admin token of our own. */
async function apiStats(request: APIRequestContext): Promise<DashboardStats> {
  const signIn = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(signIn.ok()).toBe(true);
  const { token } = (await signIn.json()) as { token: string };
  const res = await request.get("/api/admin/dashboard/stats", { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as DashboardStats;
}

const card = (page: Page, title: string) => page.getByRole("group", { name: title, exact: true });

test.describe("dashboard", () => {
  test("every card shows the platform's figures with the spec's texts", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await openAsAdmin(page, "/");
    await expect(card(page, "Total Artists")).toBeVisible();
    const stats = await apiStats(page.request);
    // The demo platform has vendors, sales and activity, so the figures below are not all zeros.
    expect(stats.totalVendors).toBeGreaterThan(0);
    expect(stats.recentActivity.length).toBe(10);

    const expectCard = async (title: string, value: string, description: string) => {
      await expect(card(page, title).getByTestId("stat-value")).toHaveText(value);
      await expect(card(page, title)).toContainText(description);
    };
    await expectCard("Total Artists", String(stats.totalVendors), `${stats.activeVendors} active`);
    await expectCard("Monthly Recurring", usd.format(stats.monthlyRecurring), "Subscription revenue");
    await expectCard("Total Products", String(stats.totalProducts), "Listed items");
    await expectCard("Platform Fees (MTD)", usd.format(stats.platformFees), `${stats.platformFeePercentage}% transaction fees`);
    await expectCard("Today's Sales", usd.format(stats.todaySales), "Gross merchandise value");
    await expectCard("Week Sales", usd.format(stats.weekSales), "Last 7 days");

    for (const name of ["Send Announcement", "View Analytics", "Process Payouts"]) {
      await expect(page.getByRole("button", { name })).toBeVisible();
    }
    // A link to the storefront's invite-code manager, opening in a new tab (featured-and-attention.spec.ts follows it).
    await expect(page.getByRole("link", { name: /Create Invite Code/ })).toHaveAttribute("target", "_blank");

    const items = page.getByRole("list", { name: "Recent Activity" }).getByRole("listitem");
    await expect(items).toHaveCount(10);
    const label = { vendor_joined: "New artist joined:", product_added: "Product added:", sale: "Sale completed:" } as const;
    for (const [i, e] of stats.recentActivity.entries()) {
      await expect(items.nth(i)).toContainText(`${label[e.type]} ${e.name}`);
    }

    // The chart library ships only with the Analytics screen.
    expect(scripts.filter((u) => /revenue-chart/.test(u))).toEqual([]);
  });

  test("a load failure shows the error and 'Try Again' loads the figures", async ({ page }) => {
    // Failing until the error shows (the query client retries a 5xx twice first), then healthy again.
    let failing = true;
    await page.route("**/api/admin/dashboard/stats", async (route) => {
      if (failing) {
        await route.fulfill({ status: 503, contentType: "application/json", body: '{"error":{"code":"unavailable","message":"down"}}' });
        return;
      }
      await route.continue();
    });
    await openAsAdmin(page, "/");
    await expect(page.getByText("Error loading dashboard")).toBeVisible();
    await expect(page.getByRole("alert")).toContainText("API Error:");
    failing = false;
    await page.getByRole("button", { name: "Try Again" }).click();
    await expect(card(page, "Total Artists")).toBeVisible();
    await expect(page.getByText("Error loading dashboard")).toBeHidden();
  });
});

test.describe("hidden /test-error page", () => {
  test("both buttons show what came back", async ({ page }) => {
    await openAsAdmin(page, "/test-error");
    await page.getByRole("button", { name: "Test Error Logging" }).click();
    const logging = page.getByRole("region", { name: "Test Error Logging result" });
    await expect(logging).toContainText("Error");
    await expect(logging).toContainText('"code":"test_error"');
    await expect(logging).toContainText("Test error logged");

    await page.getByRole("button", { name: "Create Invalid Product" }).click();
    const product = page.getByRole("region", { name: "Create Invalid Product result" });
    await expect(product).toContainText("Success");
    await expect(product).toContainText('"totalVendors"');
  });
});
