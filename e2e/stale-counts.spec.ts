import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import type { AdminVendorsResponse, VendorListItem } from "../src/contract/vendors";
import { E2E, mainNav, openAsAdmin } from "./helpers";

/**
 * A change made on one screen shows on another at once: disabling a vendor refreshes the areas its
 * endpoint's definition names (vendors, dashboard, analytics), so the dashboard's cached figures,
 * still fresh by their stale time, are refetched when the admin goes back to them without a reload.
 */

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

/**
 * An active, non-internal vendor no other spec touches: vendors.spec.ts takes the four newest active
 * ones (and deletes one), so this takes the oldest of the newest hundred; disabling it does not move
 * the newest ones either.
 */
async function pickVendor(request: APIRequestContext, token: string): Promise<VendorListItem> {
  const res = await request.get("/api/admin/vendors?status=active&limit=100", { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  const candidates = ((await res.json()) as AdminVendorsResponse).vendors.filter((v) => !v.isInternal);
  if (candidates.length < 8) throw new Error("the demo data has too few active vendors");
  return candidates.at(-1)!;
}

async function setActive(request: APIRequestContext, token: string, id: string, isActive: boolean): Promise<void> {
  const res = await request.patch(`/api/vendors/${encodeURIComponent(id)}/status`, { headers: { authorization: `Bearer ${token}` }, data: { isActive } });
  expect(res.ok()).toBe(true);
}

const artistsCard = (page: Page) => page.getByRole("group", { name: "Total Artists", exact: true });

/** The dashboard's active-vendor figure ("{n} active" under Total Artists). */
async function activeCount(page: Page): Promise<number> {
  await expect(artistsCard(page)).toContainText(/\d+ active/);
  const match = /(\d+) active/.exec((await artistsCard(page).textContent()) ?? "");
  return Number(match![1]);
}

async function goTo(page: Page, label: "Dashboard" | "Vendors", heading: string): Promise<void> {
  await mainNav(page).getByRole("link", { name: label, exact: true }).click();
  await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
}

test.describe("counts after a change elsewhere", () => {
  test("disabling a vendor lowers the dashboard's active count on the next visit, without a reload", async ({ page, request }) => {
    const token = await adminToken(request);
    const vendor = await pickVendor(request, token);
    try {
      await openAsAdmin(page, "/");
      const before = await activeCount(page);
      // Set once; a full page load would lose it, so it proves every step below is client-side navigation.
      await page.evaluate(() => {
        (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
      });

      await goTo(page, "Vendors", "Vendors");
      await page.getByLabel("Search vendors").fill(vendor.slug);
      const row = page.getByTestId(`vendor-row-${vendor.slug}`);
      await row.getByRole("button", { name: `Disable ${vendor.name}` }).click();
      await page.getByRole("alertdialog").getByLabel("Reason (the artist is told it)").fill("Orders not shipped");
      await page.getByRole("alertdialog").getByRole("button", { name: "Disable Vendor" }).click();
      await expect(row.getByText("Inactive", { exact: true })).toBeVisible();

      // At once: well within the dashboard answer's stale time, so only the invalidation refetches it.
      await goTo(page, "Dashboard", "Dashboard");
      await expect(artistsCard(page)).toContainText(`${before - 1} active`);

      // Leave the data as found, through the screen, and see the count come back.
      await goTo(page, "Vendors", "Vendors");
      await page.getByLabel("Search vendors").fill(vendor.slug);
      await row.getByRole("button", { name: `Enable ${vendor.name}` }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Enable Vendor" }).click();
      await expect(row.getByText("Active", { exact: true })).toBeVisible();
      await goTo(page, "Dashboard", "Dashboard");
      await expect(artistsCard(page)).toContainText(`${before} active`);

      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    } finally {
      // Whatever failed above, the vendor is active again for the other specs.
      await setActive(request, token, vendor.id, true);
    }
  });
});
