import { expect, type APIRequestContext, test } from "@playwright/test";
import type { ProductListItem, ProductsResponse } from "../src/contract/products";
import type { VendorDetail } from "../src/contract/vendors";
import { E2E, openAsAdmin } from "./helpers";

/** The products catalogue (docs/product.md §16) in the browser, checked against the API. */

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const res = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

/** Active products of the demo, newest first; tests take different ones. */
async function activeProducts(request: APIRequestContext, token: string): Promise<ProductListItem[]> {
  return (await apiGet<ProductsResponse>(request, token, "/api/admin/products?status=active&limit=100")).products;
}

const listedCount = async (request: APIRequestContext, token: string, vendorId: string) => (await apiGet<VendorDetail>(request, token, `/api/admin/vendors/${vendorId}`)).stats.totalProducts;

test.describe("products", () => {
  test("search a product, hide it with a reason, see it leave the vendor's listed count, restore it", async ({ page, request }) => {
    const token = await adminToken(request);
    const product = (await activeProducts(request, token))[3]!;
    const listedBefore = await listedCount(request, token, product.vendorId);

    await openAsAdmin(page, "/products");
    await expect(page.getByRole("heading", { name: "Products", level: 1 })).toBeVisible();
    await expect(page.getByText("Coming Soon")).toHaveCount(0);
    await page.getByLabel("Search products").fill(product.name);
    const row = page.getByTestId(`product-row-${product.id}`);
    await expect(row).toBeVisible();
    await expect(row.getByRole("link", { name: product.vendorName })).toBeVisible();

    await row.getByRole("button", { name: `Hide ${product.name}` }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("The artist is shown the reason.", { exact: false })).toBeVisible();
    await dialog.getByRole("button", { name: "Hide 1 product" }).click();
    await expect(dialog.getByText("A reason is required to hide a product", { exact: false })).toBeVisible();
    await dialog.getByLabel("Reason (shown to the artist)").fill("Uses a trademarked logo (e2e)");
    await dialog.getByRole("button", { name: "Hide 1 product" }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByText("Hidden", { exact: true })).toBeVisible();
    expect(await listedCount(request, token, product.vendorId)).toBe(listedBefore - 1);

    // The vendor's detail counts one listed product fewer, and its products tab says why it is missing.
    await row.getByRole("link", { name: product.vendorName }).click();
    await expect(page.getByRole("group", { name: "Products" }).getByTestId("stat-value")).toHaveText(String(listedBefore - 1));

    // Open it in the catalogue: the reason and the history, then restore.
    await page.goto(`/products?product=${product.id}`);
    const drawer = page.getByRole("dialog");
    await expect(drawer.getByTestId("product-hidden-reason")).toContainText("Uses a trademarked logo (e2e)");
    await expect(drawer.getByRole("region", { name: "Moderation history" })).toContainText(E2E.adminEmail);
    await drawer.getByRole("button", { name: "Restore…" }).click();
    const confirm = page.getByRole("dialog", { name: `Restore "${product.name}"?` });
    await confirm.getByRole("button", { name: "Restore 1 product" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole("dialog").getByText("Active", { exact: true })).toBeVisible();
    expect(await listedCount(request, token, product.vendorId)).toBe(listedBefore);
  });

  test("bulk hide three from one vendor's list, all at once, then they are restored", async ({ page, request }) => {
    const token = await adminToken(request);
    const seed = (await activeProducts(request, token))[10]!;
    const ofVendor = (await apiGet<ProductsResponse>(request, token, `/api/admin/products?vendorId=${seed.vendorId}&status=active&limit=3`)).products;
    expect(ofVendor).toHaveLength(3);
    const listedBefore = await listedCount(request, token, seed.vendorId);

    await openAsAdmin(page, `/products?vendorId=${seed.vendorId}&status=active`);
    await expect(page.getByTestId("product-vendor-filter")).toContainText(seed.vendorName);
    for (const p of ofVendor)
      await page
        .getByRole("checkbox", { name: `Select ${p.name}` })
        .first()
        .check();
    await expect(page.getByTestId("product-selection-count")).toHaveText("3 products selected");
    await page.getByRole("button", { name: "Hide selected" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("All of them change, or none does.", { exact: false })).toBeVisible();
    await dialog.getByLabel("Reason (shown to the artist)").fill("Counterfeit goods (e2e)");
    await dialog.getByRole("button", { name: "Hide 3 products" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText("3 products hidden", { exact: true })).toBeVisible();

    const hidden = (await apiGet<ProductsResponse>(request, token, `/api/admin/products?vendorId=${seed.vendorId}&status=hidden&limit=100`)).products.map((p) => p.id);
    for (const p of ofVendor) expect(hidden).toContain(p.id);
    expect(await listedCount(request, token, seed.vendorId)).toBe(listedBefore - 3);

    // Restored through the API, so the demo data stays as other specs expect it.
    const restore = await request.post("/api/admin/products/bulk-status", { headers: { authorization: `Bearer ${token}` }, data: { ids: ofVendor.map((p) => p.id), status: "active" } });
    expect(restore.status()).toBe(200);
    expect(await listedCount(request, token, seed.vendorId)).toBe(listedBefore);
  });
});
