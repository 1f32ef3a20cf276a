import { expect, test } from "@playwright/test";
import { E2E, mainNav, openAsAdmin } from "./helpers";

test("System Debug shows the truthful health of this install and refreshes", async ({ page }) => {
  await openAsAdmin(page, "/");
  await mainNav(page).getByRole("link", { name: "System Debug" }).click();
  await expect(page.getByRole("heading", { name: "System Debug", level: 1 })).toBeVisible();

  // The e2e server has no Stripe key: payment key missing + payment API not working = warning.
  await expect(page.getByTestId("overall-status")).toHaveText("Warning");
  await expect(page.getByRole("list", { name: "Problems" }).getByRole("listitem")).toHaveText(["Payment provider secret key is missing", "Payment provider API is not working"]);

  const user = page.getByRole("group", { name: "User Information" });
  await expect(user).toContainText(E2E.adminEmail);
  await expect(user).toContainText("JWT Role");
  const auth = page.getByRole("group", { name: "Authentication Provider Configuration" });
  await expect(auth).toContainText("Built-in");
  await expect(auth).toContainText("Not required (built-in provider)");
  const payments = page.getByRole("group", { name: "Payment Provider Integration (Stripe)" });
  await expect(payments).toContainText("Stripe secret key not configured");
  await expect(payments).toContainText("Not working");
  const api = page.getByRole("group", { name: "API Configuration" });
  await expect(api).toContainText("SQLite (embedded)");
  await expect(api).toContainText(new URL(page.url()).origin + "/api");
  await expect(page.getByLabel("Raw debug JSON")).toContainText(`"email": "${E2E.adminEmail}"`);
  await expect(page.getByText(/Last checked: \w/)).toBeVisible();

  const refreshed = page.waitForResponse((r) => r.url().endsWith("/api/debug/admin") && r.status() === 200);
  await page.getByRole("button", { name: "Refresh" }).click();
  await refreshed;
  await expect(page.getByTestId("overall-status")).toHaveText("Warning");
});
