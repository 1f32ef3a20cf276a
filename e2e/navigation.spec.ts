import { expect, test } from "@playwright/test";
import { E2E, mainNav, openAsAdmin } from "./helpers";

/** docs/product.md §2.2: the 11 entries in order, with the heading each screen shows, Orders after Products, and Integrations (admins only) after Admin Users. */
const ENTRIES = [
  { label: "Dashboard", path: "/", heading: "Dashboard" },
  { label: "Vendors", path: "/vendors", heading: "Vendors" },
  { label: "Products", path: "/products", heading: "Products" },
  { label: "Orders", path: "/orders", heading: "Orders" },
  { label: "Financials", path: "/financials", heading: "Financials" },
  { label: "Analytics", path: "/analytics", heading: "Analytics" },
  { label: "Invite Codes", path: "/invite-codes", heading: "Invite Codes" },
  { label: "Communications", path: "/communications", heading: "Communications" },
  { label: "Admin Users", path: "/admin-users", heading: "Admin Users" },
  { label: "Integrations", path: "/integrations", heading: "Integrations" },
  { label: "Error Logs", path: "/errors", heading: "Error Logs" },
  { label: "Settings", path: "/settings", heading: "Settings" },
  { label: "System Debug", path: "/system-debug", heading: "System Debug" },
] as const;

test.describe("navigation", () => {
  test("the left navigation lists the spec's 11 entries and Orders in its order, with Integrations for admins", async ({ page }) => {
    await openAsAdmin(page);
    const links = mainNav(page).getByRole("link");
    await expect(links).toHaveText(ENTRIES.map((e) => e.label));
    for (const [i, entry] of ENTRIES.entries()) {
      await expect(links.nth(i)).toHaveAttribute("href", entry.path);
    }
  });

  test("every entry reaches its screen and is marked current", async ({ page }) => {
    await openAsAdmin(page, "/system-debug");
    for (const entry of ENTRIES) {
      await mainNav(page).getByRole("link", { name: entry.label, exact: true }).click();
      await expect(page).toHaveURL(entry.path);
      await expect(page.getByRole("heading", { name: entry.heading, level: 1 })).toBeVisible();
      await expect(mainNav(page).getByRole("link", { name: entry.label, exact: true })).toHaveAttribute("aria-current", "page");
      await expect(mainNav(page).locator('[aria-current="page"]')).toHaveCount(1);
    }
  });

  // The spec's placeholders are real screens now (products, communications): none says 'Coming Soon'.
  for (const path of ["/products", "/communications"]) {
    test(`${path} is a real screen, not 'Coming Soon'`, async ({ page }) => {
      await openAsAdmin(page, path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByRole("main").getByText("Coming Soon")).toHaveCount(0);
    });
  }

  test("/invite-codes only links to the storefront's manager in a new tab", async ({ page }) => {
    await openAsAdmin(page, "/invite-codes");
    const link = page.getByRole("main").getByRole("link");
    await expect(link).toHaveCount(1);
    await expect(link).toHaveAttribute("href", `${E2E.storefrontUrl}/admin/invite-codes`);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  });

  test("vendor detail and the hidden /test-error page are routes", async ({ page }) => {
    await openAsAdmin(page, "/vendors/some-vendor");
    // The detail screen's own content (e.g. 'Vendor not found' for this id) belongs to its feature's tests;
    // here it only has to be a route inside the layout, with Vendors marked as the current section.
    await expect(mainNav(page).getByRole("link", { name: "Vendors", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("main")).not.toBeEmpty();
    await expect(page.getByText("Unexpected Application Error!")).toBeHidden();
    await page.goto("/test-error");
    await expect(page.getByRole("heading", { name: "Test Error", level: 1 })).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "Test Error" })).toHaveCount(0);
  });

  test("an unknown route shows 'Unexpected Application Error!'", async ({ page }) => {
    await openAsAdmin(page, "/no-such-page");
    await expect(page.getByText("Unexpected Application Error!")).toBeVisible();
    await expect(page.getByText("404 Not Found")).toBeVisible();
  });
});
