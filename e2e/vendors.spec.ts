import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import type { AdminVendorsResponse, VendorDetail, VendorListItem } from "../src/contract/vendors";
import { E2E, openAsAdmin } from "./helpers";

/** A bearer token of the seeded admin, so the tests can check that the API agrees with the screen. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<{ status: number; body: T }> {
  const res = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status(), body: (await res.json()) as T };
}

/** An active, non-internal demo vendor picked through the API (the newest ones; distinct per test). */
async function pickVendor(request: APIRequestContext, token: string, index: number): Promise<VendorListItem> {
  const { body } = await apiGet<AdminVendorsResponse>(request, token, "/api/admin/vendors?status=active&limit=50");
  const candidates = body.vendors.filter((v) => !v.isInternal);
  const vendor = candidates[index];
  if (!vendor) throw new Error("the demo data has too few active vendors");
  return vendor;
}

async function searchFor(page: Page, text: string): Promise<void> {
  await page.getByLabel("Search vendors").fill(text);
}

test.describe("vendors", () => {
  test("the list shows the spec's parts and finds a vendor by part of its name, e-mail or slug", async ({ page, request }) => {
    const token = await adminToken(request);
    const vendor = await pickVendor(request, token, 0);
    const { body } = await apiGet<AdminVendorsResponse>(request, token, "/api/admin/vendors");
    await openAsAdmin(page, "/vendors");
    await expect(page.getByRole("heading", { name: "Vendors", level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: "Refresh" })).toBeVisible();
    await expect(page.getByTestId("vendor-count-total")).toHaveText(body.counts.total.toLocaleString("en-US"));
    await expect(page.getByTestId("vendor-count-internal")).toHaveText(body.counts.internal.toLocaleString("en-US"));

    for (const part of [vendor.name.slice(1, -1), vendor.email.split("@")[0]!, vendor.slug.slice(2)]) {
      await searchFor(page, part);
      const row = page.getByTestId(`vendor-row-${vendor.slug}`);
      await expect(row).toBeVisible();
      await expect(row.getByText("Active", { exact: true })).toBeVisible();
      await expect(row.getByText(`${E2E.storefrontUrl}/${vendor.slug}`)).toBeVisible();
    }
    await searchFor(page, "no vendor is called this zzqx");
    await expect(page.getByText("No vendors found. Create invite codes to allow artists to join.")).toBeVisible();
  });

  test("disable then enable from the list, confirmed in dialogs; the API agrees", async ({ page, request }) => {
    const token = await adminToken(request);
    const vendor = await pickVendor(request, token, 1);
    await openAsAdmin(page, "/vendors");
    await searchFor(page, vendor.slug);
    const row = page.getByTestId(`vendor-row-${vendor.slug}`);

    await row.getByRole("button", { name: `Disable ${vendor.name}` }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("hidden from public listings");
    await expect(dialog).toContainText("vendor dashboard");
    await expect(dialog).toContainText("reactivated");
    // The reason is required (the artist is told it): a template from Settings fills it.
    await expect(dialog.getByRole("button", { name: "Disable Vendor" })).toBeDisabled();
    await dialog.getByRole("list", { name: "Reason templates" }).getByRole("button").first().click();
    await dialog.getByRole("button", { name: "Disable Vendor" }).click();
    await expect(row.getByText("Inactive", { exact: true })).toBeVisible();
    await expect.poll(async () => (await apiGet<VendorDetail>(request, token, `/api/admin/vendors/${vendor.id}`)).body.status).toBe("suspended");

    await row.getByRole("button", { name: `Enable ${vendor.name}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Enable Vendor" }).click();
    await expect(row.getByText("Active", { exact: true })).toBeVisible();
    await expect.poll(async () => (await apiGet<VendorDetail>(request, token, `/api/admin/vendors/${vendor.id}`)).body.status).toBe("active");
  });

  test("suspend and reactivate on the detail screen; the tab survives a reload", async ({ page, request }) => {
    const token = await adminToken(request);
    const vendor = await pickVendor(request, token, 2);
    await openAsAdmin(page, "/vendors");
    await searchFor(page, vendor.slug);
    await page.getByRole("link", { name: vendor.name, exact: true }).click();
    await expect(page.getByRole("heading", { name: vendor.name, level: 1 })).toBeVisible();
    await expect(page.getByText("Member Since")).toBeVisible();
    await expect(page.getByText("Conversion Rate")).toBeVisible();

    await page.getByRole("tab", { name: "Products" }).click();
    await expect(page.getByRole("columnheader", { name: "Inventory" })).toBeVisible();
    await page.getByRole("tab", { name: "Settings" }).click();
    await expect(page).toHaveURL(/tab=settings/);
    await page.reload();
    await page.getByRole("button", { name: "Suspend Vendor" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByLabel("Reason (the artist is told it)").fill("Orders not shipped for a month");
    await dialog.getByRole("button", { name: "Suspend Vendor" }).click();
    await expect(page.getByRole("button", { name: "Reactivate Vendor" })).toBeVisible();
    await expect(page.getByText("Reason: Orders not shipped for a month")).toBeVisible();
    await expect(page.getByRole("table", { name: "Status history" })).toContainText("Orders not shipped for a month");
    await expect(page.getByRole("button", { name: "Activate Vendor", exact: true })).toBeVisible();
    await expect.poll(async () => (await apiGet<VendorDetail>(request, token, `/api/admin/vendors/${vendor.id}`)).body.status).toBe("suspended");

    await page.getByRole("button", { name: "Reactivate Vendor" }).click();
    await expect(page.getByRole("button", { name: "Suspend Vendor" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Reactivate Vendor" })).toBeHidden();
    await expect.poll(async () => (await apiGet<VendorDetail>(request, token, `/api/admin/vendors/${vendor.id}`)).body.status).toBe("active");
  });

  test("delete through the dialog naming the auth provider; the vendor is gone from the list and the API", async ({ page, request }) => {
    const token = await adminToken(request);
    const vendor = await pickVendor(request, token, 3);
    const config = (await (await request.get("/api/config")).json()) as { authProviderName: string };
    await openAsAdmin(page, "/vendors");
    await searchFor(page, vendor.slug);
    const row = page.getByTestId(`vendor-row-${vendor.slug}`);
    await row.getByRole("button", { name: `Delete ${vendor.name}` }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("cannot be undone");
    await expect(dialog).toContainText("disabling the vendor instead");
    await dialog.getByRole("button", { name: `Delete Vendor & ${config.authProviderName} Account` }).click();
    await expect(row).toBeHidden();
    await expect(page.getByText("No vendors found. Create invite codes to allow artists to join.")).toBeVisible();
    expect((await apiGet(request, token, `/api/admin/vendors/${vendor.id}`)).status).toBe(404);

    await page.goto(`/vendors/${vendor.id}`);
    await expect(page.getByText("Vendor not found")).toBeVisible();
  });
});
