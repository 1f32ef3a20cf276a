import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import type { AdminVendorsResponse } from "../src/contract/vendors";
import { type ReceivedWebhook, startWebhookReceiver, verifyWith, type WebhookReceiver } from "../src/server/testing/webhook-receiver";
import { E2E, mainNav, openAsAdmin } from "./helpers";

/** A bearer token of the seeded admin, for the calls that set up and clean up around the screen. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

/** Adds an endpoint through the Integrations screen, as an admin would; answers its secret, read from the dialog that shows it once. */
async function addEndpoint(page: Page, url: string): Promise<string> {
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add webhook endpoint" });
  await dialog.getByLabel("Endpoint URL").fill(url);
  await expect(dialog.getByRole("checkbox", { name: /^artist\.status_changed:/ })).toBeChecked();
  await dialog.getByLabel("Description (optional)").fill("Storefront (e2e)");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  const shown = page.getByRole("dialog", { name: "Webhook endpoint added" });
  await expect(shown.getByText("You won't see this secret again", { exact: false })).toBeVisible();
  const secret = await shown.getByTestId("webhook-secret").inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId(`webhook-row-${url}`)).toBeVisible();
  return secret;
}

/** Whether `secret` verifies a request the receiver recorded. */
function signedWith(secret: string, received: ReceivedWebhook): boolean {
  try {
    verifyWith(secret, received.body, received.headers);
    return true;
  } catch {
    return false;
  }
}

/** Deletes the endpoints at `url` (the server outlives this file: nothing more goes to a closed receiver). */
async function removeEndpoints(request: APIRequestContext, token: string, url: string): Promise<void> {
  const list = (await (await request.get("/api/admin/integrations/webhooks", { headers: { authorization: `Bearer ${token}` } })).json()) as { items: Array<{ id: string; url: string }> };
  for (const e of list.items.filter((x) => x.url === url)) await request.delete(`/api/admin/integrations/webhooks/${e.id}`, { headers: { authorization: `Bearer ${token}` } });
}

test.describe("webhooks", () => {
  let receiver: WebhookReceiver;
  test.beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  test.afterEach(async ({ request }) => {
    await removeEndpoints(request, await adminToken(request), receiver.url);
    await receiver.close();
  });

  test("add an endpoint on the Integrations screen, disable an artist, see the signed delivery succeed in its log", async ({ page, request }) => {
    const token = await adminToken(request);
    const vendors = (await (await request.get("/api/admin/vendors?status=active&limit=50", { headers: { authorization: `Bearer ${token}` } })).json()) as AdminVendorsResponse;
    // Not one the vendors tests pick (they run beside this file on the same server).
    const artist = vendors.vendors.filter((v) => !v.isInternal)[9]!;

    await openAsAdmin(page, "/");
    await mainNav(page).getByRole("link", { name: "Integrations" }).click();
    const section = page.getByRole("region", { name: "Webhooks" });
    // The demo's endpoint, at an example address, disabled.
    await expect(section.getByTestId("webhook-row-https://storefront.example.com/webhooks/hki")).toContainText("Disabled by an admin");
    const secret = await addEndpoint(page, receiver.url);
    receiver.setSecrets([secret]);

    await mainNav(page).getByRole("link", { name: "Vendors" }).click();
    await page.getByLabel("Search vendors").fill(artist.slug);
    const row = page.getByTestId(`vendor-row-${artist.slug}`);
    await row.getByRole("button", { name: `Disable ${artist.name}` }).click();
    await page.getByRole("alertdialog").getByLabel("Reason (the artist is told it)").fill("Orders not shipped");
    await page.getByRole("alertdialog").getByRole("button", { name: "Disable Vendor" }).click();
    await expect(row.getByText("Inactive", { exact: true })).toBeVisible();

    // The storefront's receiver got it, signed with the secret shown once. Every request it got is
    // checked against that secret now: other specs' decisions may have reached it before the secret
    // was handed to the receiver.
    await expect.poll(() => receiver.received.filter((r) => r.verified?.type === "artist.status_changed" && (r.verified.data as { vendorId: string }).vendorId === artist.id).length).toBe(1);
    expect(receiver.received.filter((r) => !signedWith(secret, r)).length).toBe(0);

    await mainNav(page).getByRole("link", { name: "Integrations" }).click();
    await page.getByRole("button", { name: `Deliveries to ${receiver.url}` }).click();
    const log = page.getByTestId("webhook-deliveries");
    const delivery = log.getByTestId("delivery-artist.status_changed").first();
    await expect(delivery).toContainText("Delivered");
    await expect(delivery).toContainText(/HTTP 204 in [\d,]+ ms/);
    await expect(page.getByTestId(`webhook-row-${receiver.url}`)).toContainText("Enabled");
  });

  test("a failing endpoint shows its attempts, and Resend sends the event again", async ({ page }) => {
    // The receiver is down for the first test event (other specs' events may come in between).
    let testEvents = 0;
    receiver.answer = (request) => (request.verified?.type === "webhook.test" && ++testEvents === 1 ? { status: 503, body: "down for maintenance" } : { status: 200 });
    await openAsAdmin(page, "/integrations");
    const secret = await addEndpoint(page, receiver.url);
    receiver.setSecrets([secret]);
    const row = page.getByTestId(`webhook-row-${receiver.url}`);
    await row.getByRole("button", { name: `Send a test event to ${receiver.url}` }).click();
    const log = page.getByTestId("webhook-deliveries");
    const first = log.getByTestId("delivery-webhook.test").first();
    await expect(first).toContainText("HTTP 503");
    await expect(first).toContainText("down for maintenance");
    await expect(first.getByRole("cell").nth(3)).toHaveText("1");

    await first.getByRole("button", { name: /^Resend the webhook\.test event/ }).click();
    await expect(page.getByText(`webhook.test sent again to ${receiver.url}`, { exact: true })).toBeVisible();
    await expect(log.locator('[data-testid="delivery-webhook.test"][data-status="delivered"]').first()).toContainText("HTTP 200");
    await expect.poll(() => receiver.received.filter((r) => r.verified?.type === "webhook.test").length).toBeGreaterThanOrEqual(2);
    // Both came with the same event id: a receiver drops the repeat. (Other specs' decisions reach
    // this endpoint too while it is registered: only the test event's deliveries count here.)
    const testDeliveries = receiver.received.filter((r) => r.verified?.type === "webhook.test");
    expect(new Set(testDeliveries.map((r) => r.headers["webhook-id"])).size).toBe(1);
  });
});
