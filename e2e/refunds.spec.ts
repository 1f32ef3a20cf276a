import { expect, type APIRequestContext, test } from "@playwright/test";
import type { OrderDetail, OrderListItem, OrdersResponse } from "../src/contract/orders";
import { E2E, mainNav, openAsAdmin } from "./helpers";
import { E2E_LOST_REFUND_ANSWER } from "./test-env";

/**
 * A refund from the panel (docs/product.md §19.6) on the payouts server of global-setup, whose
 * refunds go to the fake Stripe it runs: find the order by the buyer's e-mail, refund one line in
 * part with a reason, see the refund on the order's timeline and on the artist's statement; a refund
 * whose answer from Stripe was lost is settled with 'Check with Stripe'.
 */
const payoutsUrl = process.env.E2E_PAYOUTS_BASE_URL;
test.use({ baseURL: payoutsUrl });
test.skip(!payoutsUrl, "needs the payouts server that global-setup starts (not there with E2E_BASE_URL)");

async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const res = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(res.ok()).toBe(true);
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

/** A recent paid demo line with a buyer, a Stripe payment and at least $10 left to refund. */
async function refundableLine(request: APIRequestContext): Promise<OrderListItem> {
  const headers = await adminHeaders(request);
  const page = (await (await request.get("/api/admin/orders?status=paid&limit=50", { headers })).json()) as OrdersResponse;
  for (const line of page.orders.filter((o) => o.customerEmail !== null && o.refundedInParts === 0 && o.amount >= 10)) {
    const detail = (await (await request.get(`/api/admin/orders/${line.id}`, { headers })).json()) as OrderDetail;
    if (detail.paymentIntentId !== null && (detail.refundable.find((r) => r.orderId === line.id)?.amount ?? 0) >= 10) return line;
  }
  throw new Error("the demo data has no refundable paid line among the newest 50");
}

test("find an order by the buyer's e-mail, refund one line with a reason, see it on the timeline and the artist's statement; check an unknown refund with Stripe", async ({ page, request }) => {
  const line = await refundableLine(request);
  const label = `${line.externalOrderId} / ${line.externalLineId}`;
  await openAsAdmin(page, "/");
  await mainNav(page).getByRole("link", { name: "Orders", exact: true }).click();
  await page.getByLabel("Search orders").fill(line.customerEmail!);
  const row = page.getByTestId(`order-row-${line.id}`);
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: `Open order ${label}` }).click();
  const drawer = page.getByRole("dialog", { name: `Order ${label}` });
  await drawer.getByRole("button", { name: "Refund…" }).click();

  const dialog = page.getByRole("dialog", { name: /^Refund / });
  await expect(dialog.getByRole("checkbox", { name: new RegExp(label) })).toBeChecked();
  await dialog.getByLabel(`Amount to refund of ${label} (dollars)`).fill("7.50");
  await dialog.getByLabel("Reason").fill("Arrived with a chipped corner: partial refund agreed");
  await expect(dialog.getByTestId("refund-summary")).toContainText("$7.50 goes back to the buyer's card");
  await dialog.getByRole("button", { name: "Refund $7.50" }).click();
  await expect(page.getByText("Refunded $7.50", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  // The timeline: who, how much, the reason and Stripe's refund id (the fake's).
  const refunded = drawer.getByRole("region", { name: "Timeline" }).getByTestId("order-event-refunded").last();
  await expect(refunded).toContainText("$7.50");
  await expect(refunded).toContainText(`By ${E2E.adminEmail}`);
  await expect(refunded).toContainText("Reason: Arrived with a chipped corner");
  await expect(refunded).toContainText(/Stripe refund re_fake\d+/);
  await expect(drawer.getByTestId("order-refunded")).toContainText("$7.50");

  // The artist's statement: the refund, newest, linking back to the order.
  await page.goto(`/vendors/${encodeURIComponent(line.vendorId)}?tab=statement`);
  const statement = page.getByRole("table", { name: "Statement" });
  const entry = statement
    .getByRole("row")
    .filter({ hasText: `Refund ${label}` })
    .first();
  await expect(entry).toContainText("$7.50 back to the buyer");
  await expect(entry.getByRole("link")).toHaveAttribute("href", `/orders?order=${line.id}`);

  // Stripe makes the next refund but its answer is lost (global-setup's fake): unknown, then 'Check with Stripe' records it.
  await page.goto(`/orders?order=${line.id}`);
  await drawer.getByRole("button", { name: "Refund…" }).click();
  await dialog.getByLabel(`Amount to refund of ${label} (dollars)`).fill("2.25");
  await dialog.getByLabel("Reason").fill(`Second chip found ${E2E_LOST_REFUND_ANSWER}`);
  await dialog.getByRole("button", { name: "Refund $2.25" }).click();
  await expect(page.getByText("Refund asked of Stripe", { exact: true }).first()).toBeVisible();
  const check = drawer.getByTestId("refund-check");
  await expect(check).toContainText("the refund may have been made");
  await check.getByRole("button", { name: "Check with Stripe" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Check the refund of $2.25 with Stripe?" });
  await expect(confirm).toContainText("never asks Stripe to refund again");
  await confirm.getByRole("button", { name: "Check with Stripe" }).click();
  await expect(page.getByText("Refunded $2.25: Stripe made the refund", { exact: true })).toBeVisible();
  await expect(drawer.getByTestId("refund-check")).toHaveCount(0);
  await expect(drawer.getByRole("region", { name: "Timeline" }).getByTestId("order-event-refunded").filter({ hasText: "$2.25" })).toContainText(/Stripe refund re_fake\d+/);
  await expect(drawer.getByTestId("order-refunded")).toContainText("$9.75");
});
