import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { AttentionItem, AttentionResponse } from "../src/contract/dashboard";
import type { ProductsResponse } from "../src/contract/products";
import type { FeaturedArtistResponse } from "../src/contract/featured-artist";
import type { VendorListItem } from "../src/contract/vendors";
import { E2E, openAsAdmin } from "./helpers";

/**
 * Issue 22 (docs/product.md §18): feature an artist from its vendor page and see it on the
 * dashboard; the "needs attention" card links to its filtered lists; each quick action lands
 * where it says.
 */

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

async function apiGet<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path, { headers: { authorization: `Bearer ${await adminToken(request)}` } });
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true);
  return (await res.json()) as T;
}

test("feature an artist from the vendor page and see it on the dashboard", async ({ page }) => {
  const featuredBefore = await apiGet<FeaturedArtistResponse>(page.request, "/api/admin/featured-artist");
  const vendors = await apiGet<VendorListItem[]>(page.request, "/api/vendors");
  // An active artist (internal stores are not in this list) that is not featured now.
  const artist = vendors.find((v) => v.isActive && !v.isInternal && v.id !== featuredBefore.current?.vendorId);
  expect(artist, "the demo has active artists").toBeTruthy();

  await openAsAdmin(page, `/vendors/${artist!.id}?tab=settings`);
  await page.getByLabel("Duration (days)").fill("3");
  await page.getByRole("button", { name: "Feature this artist" }).click();
  await expect(page.getByText(new RegExp(`^${artist!.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is featured from`))).toBeVisible();

  const after = await apiGet<FeaturedArtistResponse>(page.request, "/api/admin/featured-artist");
  expect(after.current?.vendorId).toBe(artist!.id);
  expect(Date.parse(after.current!.endsAt) - Date.parse(after.current!.startsAt)).toBe(3 * 86_400_000);
  // The one featured before was replaced: it ended when this one started.
  if (featuredBefore.current) expect(after.history[0]).toMatchObject({ vendorId: featuredBefore.current.vendorId, endReason: "replaced" });

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  const featured = page.getByRole("region", { name: "Featured Artist" });
  await expect(featured.getByRole("link", { name: artist!.name })).toBeVisible();
  await expect(featured).toContainText("Featured until");

  // The storefront's public read names the same artist, without a token.
  const pub = await page.request.get("/api/public/featured-artist");
  expect(pub.headers()["cache-control"]).toBe("public, max-age=60");
  expect(((await pub.json()) as { featured: { name: string } | null }).featured?.name).toBe(artist!.name);
});

/** What each item's link must show: the list filtered to exactly those items (docs/product.md §18.3). */
const FILTERED: Record<AttentionItem["key"], (page: Page, href: URL) => Promise<void>> = {
  // The financial lists' status filters are Radix selects: the trigger names the status in force.
  payout_accounts_restricted: (page) => expect(page.locator("#balances-status")).toHaveText(/^Restricted/),
  payout_accounts_not_connected: (page) => expect(page.locator("#balances-status")).toHaveText(/^Not connected/),
  payouts_failed: (page) => expect(page.locator("#payouts-status")).toHaveText(/^Failed/),
  payouts_unknown: (page) => expect(page.locator("#payouts-status")).toHaveText(/^Unknown/),
  // The order of the first dispute due, open over the Orders list, its dispute open with the date and Stripe's link.
  disputes_open: async (page) => {
    const dispute = page.getByRole("dialog").getByTestId("order-dispute").first();
    await expect(dispute).toContainText("Evidence due by");
    await expect(dispute.getByRole("link", { name: "Open in Stripe's dashboard" })).toHaveAttribute("href", /^https:\/\/dashboard\.stripe\.com\/(test\/)?disputes\/dp_/);
  },
  stripe_differences: (page) => expect(page.getByTestId("stripe-differences")).toContainText("open difference"),
  // The Integrations screen, where each disabled endpoint says why and can be enabled again.
  webhook_endpoints_disabled: (page) => expect(page.getByRole("region", { name: "Webhooks" }).getByText("Disabled", { exact: false }).first()).toBeVisible(),
  announcement_failures: async (page) => {
    await expect(page.locator("#recipients-status")).toHaveValue("failed");
    await expect(page.getByRole("table").last()).toContainText("Failed");
  },
  errors_spike: async (page) => {
    await expect(page.getByTestId("error-card-error")).toHaveAttribute("aria-pressed", "true");
    for (const row of await page.getByTestId("error-row").all()) await expect(row).toContainText(/error/i);
  },
  // The Vendors screen's Applications tab: the queue, oldest first.
  applications_waiting: (page) => expect(page.getByRole("table", { name: "Applications" })).toBeVisible(),
  // The Products screen's Review tab: the listings waiting, oldest first.
  listings_waiting_review: (page) => expect(page.getByRole("table", { name: "Listings waiting for review" })).toBeVisible(),
  vendors_over_product_limit: async (page) => {
    await expect(page.locator("#product-over-limit")).toHaveValue("over");
    await expect(page.getByTestId("product-over-limit-filter")).toBeVisible();
    // Every row is a product of a vendor over the limit (the list the server answers to overLimit=true).
    const over = await apiGet<ProductsResponse>(page.request, "/api/admin/products?overLimit=true&limit=50");
    const vendors = new Set(over.products.map((p) => p.vendorName));
    const rows = page.getByRole("table", { name: "Products" }).getByRole("row");
    await expect(rows.nth(1)).toBeVisible();
    for (const row of (await rows.all()).slice(1, 6)) {
      const text = (await row.textContent()) ?? "";
      expect(
        [...vendors].some((v) => text.includes(v)),
        text,
      ).toBe(true);
    }
  },
  invitations_expiring: (page) => expect(page.getByRole("tab", { name: "Invitations" })).toHaveAttribute("aria-selected", "true"),
  featured_slot: (page) => expect(page.locator("#vendor-status")).toHaveValue("active"),
  // The page of the artist whose account was deleted last, still active: Disable and Delete are on it.
  owner_accounts_deleted: async (page) => {
    await expect(page.locator("#page-title")).toBeVisible();
    await expect(page.locator("section[aria-labelledby='page-title']").getByText("Active", { exact: true }).first()).toBeVisible();
  },
};

test("'Needs Attention' lists what needs the operator, each item linking to its filtered list", async ({ page }) => {
  // One page visit per item (fifteen of them on the demo platform).
  test.setTimeout(60_000);
  const attention = await apiGet<AttentionResponse>(page.request, "/api/admin/dashboard/attention");
  // The demo platform has artists owed money whose payout account is not usable.
  expect(attention.items.length).toBeGreaterThan(0);
  await openAsAdmin(page, "/");
  const list = page.getByRole("list", { name: "Needs Attention" });
  await expect(list.getByRole("link")).toHaveCount(attention.items.length);
  for (const [i, item] of attention.items.entries()) {
    if (i > 0) await page.goto("/");
    const link = list.getByRole("link").nth(i);
    await expect(link).toContainText(item.label);
    await link.click();
    const target = new URL(item.href, "http://x");
    await expect(page, item.key).toHaveURL((url) => url.pathname === target.pathname && [...target.searchParams].every(([k, v]) => url.searchParams.get(k) === v));
    await FILTERED[item.key](page, target);
  }
});

test.describe("quick actions land where they say", () => {
  test("'Create Invite Code' opens the storefront's invite-code manager in a new tab", async ({ page }) => {
    await openAsAdmin(page, "/");
    const link = page.getByRole("link", { name: /Create Invite Code/ });
    await expect(link).toHaveAttribute("href", `${E2E.storefrontUrl}/admin/invite-codes`);
    await expect(link).toHaveAttribute("target", "_blank");
    // The storefront is not running here: block it, and check the new tab asked for the right page.
    await page.context().route(`${E2E.storefrontUrl}/**`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>Store admin</title>" }));
    const [popup] = await Promise.all([page.waitForEvent("popup"), link.click()]);
    await expect(popup).toHaveURL(`${E2E.storefrontUrl}/admin/invite-codes`);
    await expect(page).toHaveURL(/\/$/);
  });

  test("'Send Announcement' opens the communications composer", async ({ page }) => {
    await openAsAdmin(page, "/");
    await page.getByRole("button", { name: "Send Announcement" }).click();
    await expect(page).toHaveURL(/\/communications\?compose=1$/);
    await expect(page.getByRole("heading", { name: "Communications", level: 1 })).toBeVisible();
  });

  test("'View Analytics' goes to the analytics screen", async ({ page }) => {
    await openAsAdmin(page, "/");
    await page.getByRole("button", { name: "View Analytics" }).click();
    await expect(page).toHaveURL(/\/analytics$/);
    await expect(page.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible();
    await expect(page.getByRole("table", { name: "Top Products" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Top Artists" })).toBeVisible();
  });

  test("'Process Payouts' opens the payout confirmation on Financials", async ({ page }) => {
    await openAsAdmin(page, "/");
    await page.getByRole("button", { name: "Process Payouts" }).click();
    await expect(page).toHaveURL(/\/financials/);
    await expect(page.getByRole("alertdialog", { name: "Process Payouts" })).toBeVisible();
  });
});
