import { expect, type APIRequestContext, test } from "@playwright/test";
import type { OrderListItem, OrdersResponse } from "../src/contract/orders";
import { E2E, mainNav, openAsAdmin } from "./helpers";

/** The Orders screen (docs/product.md "Orders") in the browser, on the demo's orders, checked against the API. */

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

/** The newest demo order line refunded in part (the demo refunds part of some second lines, from another artist). */
async function partlyRefundedLine(request: APIRequestContext, token: string): Promise<OrderListItem> {
  let cursor: string | null = null;
  for (let page = 0; page < 30; page++) {
    const res = await request.get(`/api/admin/orders?status=paid&limit=100${cursor ? `&cursor=${cursor}` : ""}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as OrdersResponse;
    const found = body.orders.find((o) => o.refundedInParts > 0 && o.customerEmail !== null);
    if (found) return found;
    cursor = body.nextCursor;
    if (!cursor) break;
  }
  throw new Error("the demo data has no order line refunded in part");
}

test.describe("orders", () => {
  test("find an order by the buyer's e-mail and open it: amounts, the refund on its timeline, the other artist's line", async ({ page, request }) => {
    const line = await partlyRefundedLine(request, await adminToken(request));
    const email = line.customerEmail!;

    await openAsAdmin(page, "/");
    await mainNav(page).getByRole("link", { name: "Orders", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();

    // Any case finds the buyer (e-mails are stored lower-cased).
    await page.getByLabel("Search orders").fill(email.toUpperCase());
    await expect(page).toHaveURL(/[?&]search=/);
    const row = page.getByTestId(`order-row-${line.id}`);
    await expect(row).toBeVisible();
    await expect(row.getByText("Partly refunded")).toBeVisible();
    await expect(row.getByRole("link", { name: line.vendorName })).toBeVisible();

    // Opened from the keyboard: the row's Open button, then Enter.
    await row.getByRole("button", { name: `Open order ${line.externalOrderId} / ${line.externalLineId}` }).focus();
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog");
    await expect(drawer.getByRole("heading", { name: `Order ${line.externalOrderId} / ${line.externalLineId}` })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]order=${line.id}`));
    const timeline = drawer.getByRole("region", { name: "Timeline" });
    await expect(timeline.getByTestId("order-event-placed")).toBeVisible();
    await expect(timeline.getByTestId("order-event-refunded")).toContainText("Reason: Arrived broken");
    await expect(timeline.getByTestId("order-event-refunded")).toContainText("Stripe refund re_demo_");
    // The storefront order's first line is another artist's.
    const lines = drawer.getByRole("region", { name: "Lines of this order" });
    await expect(lines.getByRole("listitem")).toHaveCount(2);
    await expect(lines).toContainText(`${line.externalOrderId} / line_1`);

    // Escape closes it and the search is still in force.
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(page).not.toHaveURL(/[?&]order=/);
    await expect(row).toBeVisible();
  });

  test("a search that matches nothing says so", async ({ page }) => {
    await openAsAdmin(page, "/orders?search=ord_no_such_order");
    await expect(page.getByText("No orders match these filters.")).toBeVisible();
  });
});
