import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { AnalyticsResponse } from "../src/contract/analytics";
import { E2E, openAsAdmin } from "./helpers";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

async function apiAnalytics(request: APIRequestContext, days: number): Promise<AnalyticsResponse> {
  const signIn = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  const { token } = (await signIn.json()) as { token: string };
  const res = await request.get(`/api/admin/analytics?days=${days}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as AnalyticsResponse;
}

const cents = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;
const group = (page: Page, name: string) => page.getByRole("group", { name, exact: true });

async function expectPeriod(page: Page, data: AnalyticsResponse, days: number) {
  for (const p of [7, 30, 90]) {
    await expect(page.getByRole("button", { name: `${p} days` })).toHaveAttribute("aria-pressed", String(p === days));
  }
  await expect(group(page, "Total Revenue").getByTestId("stat-value")).toHaveText(usd.format(cents(data.metrics.map((m) => m.total_revenue))));
  await expect(group(page, "Platform Fees").getByTestId("stat-value")).toHaveText(usd.format(cents(data.metrics.map((m) => m.total_fees))));
  await expect(group(page, "Platform Fees")).toContainText(`${data.platformFeePercentage}% of sales`);
  await expect(group(page, "Total Orders").getByTestId("stat-value")).toHaveText(String(data.metrics.reduce((a, m) => a + m.total_orders, 0)));
  await expect(group(page, "Active Artists").getByTestId("stat-value")).toHaveText(String(data.vendorStats.active_vendors));
  await expect(group(page, "Active Artists")).toContainText(`${data.vendorStats.new_vendors} new this month`);
}

test.describe("analytics", () => {
  test("30 days by default: cards, chart, statistics and the first 10 days", async ({ page }) => {
    await openAsAdmin(page, "/analytics");
    await expect(group(page, "Total Revenue")).toBeVisible();
    const data = await apiAnalytics(page.request, 30);
    expect(data.metrics).toHaveLength(30);
    await expectPeriod(page, data, 30);

    // A real chart, drawn by the lazily loaded chart code.
    await expect(page.locator(".recharts-surface")).toBeVisible();
    await expect(page.locator(".recharts-bar-rectangle").first()).toBeAttached();

    const artists = group(page, "Artist Statistics");
    await expect(artists).toContainText(`Total Artists${data.vendorStats.total_vendors}`);
    await expect(artists).toContainText(`New This Month${data.vendorStats.new_vendors}`);
    const products = group(page, "Product Statistics");
    await expect(products).toContainText(`Total Products${data.productStats.total_products}`);
    await expect(products).toContainText(`New This Month${data.productStats.new_products}`);
    const average = data.vendorStats.active_vendors > 0 ? Math.round(data.productStats.total_products / data.vendorStats.active_vendors) : 0;
    await expect(products).toContainText(`Average per Artist${average}`);

    const rows = page.getByRole("table", { name: "Daily Breakdown" }).getByRole("row");
    await expect(rows).toHaveCount(11);
    const first = data.metrics[0]!;
    await expect(rows.nth(1)).toContainText(usd.format(first.total_revenue));
    await expect(rows.nth(1)).toContainText(usd.format(first.total_fees));
  });

  test("the period buttons switch the figures and live in the URL", async ({ page }) => {
    await openAsAdmin(page, "/analytics");
    await expect(group(page, "Total Revenue")).toBeVisible();

    await page.getByRole("button", { name: "7 days" }).click();
    await expect(page).toHaveURL(/\/analytics\?days=7$/);
    await expectPeriod(page, await apiAnalytics(page.request, 7), 7);

    await page.getByRole("button", { name: "90 days" }).click();
    await expect(page).toHaveURL(/\/analytics\?days=90$/);
    await expectPeriod(page, await apiAnalytics(page.request, 90), 90);

    // The URL alone restores the period.
    await page.reload();
    await expect(group(page, "Total Revenue")).toBeVisible();
    await expect(page.getByRole("button", { name: "90 days" })).toHaveAttribute("aria-pressed", "true");
  });
});
