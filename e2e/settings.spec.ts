import { expect, test, type Page } from "@playwright/test";
import { E2E, mainNav, openAsAdmin } from "./helpers";

async function openSettings(page: Page) {
  await openAsAdmin(page, "/settings");
  await mainNav(page).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Platform Fee Percentage (%)", { exact: true })).toBeVisible();
}

test.describe("Settings", () => {
  test("dirty state: banner and buttons follow edits; Reset restores the loaded values", async ({ page }) => {
    await openSettings(page);
    const save = page.getByRole("button", { name: "Save Changes" });
    const reset = page.getByRole("button", { name: "Reset" });
    await expect(save).toBeDisabled();
    await expect(reset).toBeDisabled();
    await expect(page.getByText("You have unsaved changes")).toBeHidden();

    const shipping = page.getByLabel("Shipping Handling Fee ($)", { exact: true });
    const loaded = await shipping.inputValue();
    await expect(shipping).toHaveAttribute("step", "0.01");
    await shipping.fill("12.34");
    await expect(page.getByText("You have unsaved changes")).toBeVisible();
    await expect(save).toBeEnabled();

    // Maintenance select with its badge.
    await expect(page.getByRole("group", { name: "Configuration" }).getByText("OFF", { exact: true })).toBeVisible();
    await page.getByLabel("Maintenance Mode", { exact: true }).click();
    await page.getByRole("option", { name: "Enabled" }).click();
    await expect(page.getByRole("group", { name: "Configuration" }).getByText("ON", { exact: true })).toBeVisible();

    await reset.click();
    await expect(shipping).toHaveValue(loaded);
    await expect(page.getByRole("group", { name: "Configuration" }).getByText("OFF", { exact: true })).toBeVisible();
    await expect(page.getByText("You have unsaved changes")).toBeHidden();
    await expect(save).toBeDisabled();
  });

  test("save sends only the changed keys, reloads, clears dirty, and shows up in Update History", async ({ page }) => {
    await openSettings(page);
    const fee = page.getByLabel("Platform Fee Percentage (%)", { exact: true });
    const before = await fee.inputValue();
    const next = before === "2.5" ? "3.5" : "2.5";
    await fee.fill(next);
    await page.getByLabel("Platform Announcement", { exact: true }).fill("Spring show opens Monday");

    const put = page.waitForRequest((r) => r.url().endsWith("/api/admin/settings") && r.method() === "PUT");
    const reload = page.waitForResponse((r) => r.url().endsWith("/api/admin/settings") && r.request().method() === "GET");
    await page.getByRole("button", { name: "Save Changes" }).click();
    expect((await put).postDataJSON()).toEqual({ platform_fee_percentage: next, announcement_message: "Spring show opens Monday" });
    await reload;
    await expect(page.getByText("You have unsaved changes")).toBeHidden();
    await expect(page.getByRole("button", { name: "Save Changes" })).toBeDisabled();

    await page.reload();
    await expect(page.getByLabel("Platform Fee Percentage (%)", { exact: true })).toHaveValue(next);
    await expect(page.getByLabel("Platform Announcement", { exact: true })).toHaveValue("Spring show opens Monday");

    const row = page.getByRole("listitem", { name: "Platform Fee Percentage (%) history" });
    await expect(row).toContainText(`by ${E2E.adminEmail}`);
    await row.getByRole("button", { name: "Show changes" }).click();
    await expect(row.getByRole("listitem").first()).toContainText(`${E2E.adminEmail}: ${before} → ${next}`);
    const untouched = page.getByRole("listitem", { name: "Support Email history" });
    await expect(untouched).toContainText("by system (initial value)");
  });

  test("a value the server refuses is shown next to its field and nothing is saved", async ({ page }) => {
    await openSettings(page);
    const prefix = page.getByLabel("Invite Code Prefix", { exact: true });
    const loaded = await prefix.inputValue();
    await prefix.fill("lower-case");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("must be 2 to 10 upper-case letters or digits, starting with a letter")).toBeVisible();
    await expect(prefix).toHaveAttribute("aria-invalid", "true");
    await page.reload();
    await expect(page.getByLabel("Invite Code Prefix", { exact: true })).toHaveValue(loaded);
  });

  test("leaving with unsaved changes asks first", async ({ page }) => {
    await openSettings(page);
    await page.getByLabel("Max Products Per Vendor", { exact: true }).fill("42");
    await mainNav(page).getByRole("link", { name: "Dashboard" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("You have unsaved changes");
    await dialog.getByRole("button", { name: "Stay on Page" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByLabel("Max Products Per Vendor", { exact: true })).toHaveValue("42");

    await mainNav(page).getByRole("link", { name: "Dashboard" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Leave Page" }).click();
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  });
});
