import { expect, type APIRequestContext, test } from "@playwright/test";
import { E2E, openAsAdmin } from "./helpers";

async function adminApi(request: APIRequestContext) {
  const res = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(res.ok()).toBe(true);
  const token = ((await res.json()) as { token: string }).token;
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: (path: string) => request.get(path, { headers }),
    put: (path: string, data: unknown) => request.put(path, { headers, data }),
    post: (path: string, data: unknown) => request.post(path, { headers, data }),
  };
}

/**
 * Listing review (docs/product.md §20.4): with 'Review new listings' on, a listing the storefront
 * sends waits in the Products screen's Review tab (its count on the tab) instead of going live, and
 * is approved from there: it is then active and the queue no longer holds it.
 */
test("a new listing from the storefront waits in the Review tab and is approved from there", async ({ page, request }) => {
  test.setTimeout(60_000);
  const api = await adminApi(request);
  expect((await api.put("/api/admin/settings", { listing_review: "all" })).ok()).toBe(true);
  try {
    const key = ((await (await api.post("/api/admin/integrations/api-keys", { name: "Storefront (review e2e)", scopes: ["events:write"] })).json()) as { key: string }).key;
    const seed = String(Date.now() % 1_000_000);
    const now = new Date().toISOString();
    const events = [
      {
        id: `evt_review_artist_${seed}`,
        type: "artist.created",
        occurredAt: now,
        data: { artistId: `review-artist-${seed}`, name: `Review Studio ${seed}`, ownerName: "Ines Review", email: `review-${seed}@example.com`, slug: `review-studio-${seed}` },
      },
      {
        id: `evt_review_product_${seed}`,
        type: "product.created",
        occurredAt: now,
        data: { productId: `review-product-${seed}`, artistId: `review-artist-${seed}`, name: `Tidal Study ${seed}`, priceCents: 4500, inventory: 2, status: "active" },
      },
    ];
    const sent = await request.post("/api/events", { headers: { authorization: `Bearer ${key}` }, data: { events } });
    expect(sent.ok(), await sent.text()).toBe(true);
    expect(((await sent.json()) as { results: Array<{ status: string }> }).results.map((r) => r.status)).toEqual(["applied", "applied"]);

    await openAsAdmin(page, "/products");
    const tab = page.getByRole("tab", { name: /^Review/ });
    await expect(tab).toContainText(/\d+/);
    await tab.click();
    await expect(page).toHaveURL(/tab=review/);
    const table = page.getByRole("table", { name: "Listings waiting for review" });
    const row = table.getByRole("row").filter({ hasText: `Tidal Study ${seed}` });
    // The queue is oldest first: page on until the new one shows.
    for (let i = 0; i < 20 && !(await row.isVisible()); i++) {
      const next = page.getByRole("button", { name: "Next" });
      if (!(await next.isEnabled())) break;
      await next.click();
    }
    await expect(row).toContainText(`Review Studio ${seed}`);
    await expect(row).toContainText("0 hours");
    await row.getByRole("button", { name: `Approve Tidal Study ${seed}` }).click();
    const dialog = page.getByRole("dialog", { name: `Approve "Tidal Study ${seed}"?` });
    await dialog.getByRole("button", { name: "Approve listing" }).click();
    await expect(page.getByText(`"Tidal Study ${seed}" approved`).first()).toBeVisible();
    await expect(row).toBeHidden();

    // Live now: the catalogue lists it as active.
    const list = (await (await api.get(`/api/admin/products?search=${encodeURIComponent(`Tidal Study ${seed}`)}`)).json()) as { products: Array<{ status: string }> };
    expect(list.products.map((p) => p.status)).toEqual(["active"]);
  } finally {
    await api.put("/api/admin/settings", { listing_review: "off" });
  }
});
