import { expect, test, type APIRequestContext } from "@playwright/test";
import type { AttentionResponse } from "../src/contract/dashboard";
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

test("'Needs Attention' lists what needs the operator, each item linking to its filtered list", async ({ page }) => {
  const attention = await apiGet<AttentionResponse>(page.request, "/api/admin/dashboard/attention");
  // The demo platform has artists owed money whose payout account is not usable.
  expect(attention.items.length).toBeGreaterThan(0);
  await openAsAdmin(page, "/");
  const list = page.getByRole("list", { name: "Needs Attention" });
  await expect(list.getByRole("link")).toHaveCount(attention.items.length);
  const first = attention.items[0]!;
  const link = list.getByRole("link").first();
  await expect(link).toContainText(first.label);
  await link.click();
  const target = new URL(first.href, "http://x");
  await expect(page).toHaveURL((url) => url.pathname === target.pathname && [...target.searchParams].every(([k, v]) => url.searchParams.get(k) === v));
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
