import { expect, test, type Page } from "@playwright/test";
import { openAsAdmin } from "./helpers";

/**
 * Error Logs screen against the real server on the demo data (which has active and archived
 * entries of all three levels, some archived more than 30 days ago). The tests change data, so
 * they run in order in one worker.
 */
test.describe.configure({ mode: "serial" });

async function count(page: Page, key: "all" | "error" | "warning" | "info"): Promise<number> {
  const text = (await page.getByTestId(`error-count-${key}`).textContent()) ?? "";
  return Number(text.replace(/,/g, ""));
}

async function openErrors(page: Page, query = ""): Promise<void> {
  await openAsAdmin(page, `/errors${query}`);
  await expect(page.getByRole("heading", { name: "Error Logs" })).toBeVisible();
  await expect(page.getByTestId("error-count-all")).not.toHaveText("—");
}

test("toggle between active and archived views, with the view in the URL", async ({ page }) => {
  await openErrors(page);
  await expect(page.getByRole("button", { name: "Archive All" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cleanup Old Archives" })).toHaveCount(0);
  await page.getByRole("button", { name: "View Archived" }).click();
  await expect(page).toHaveURL(/archived=true/);
  await expect(page.getByRole("button", { name: "Cleanup Old Archives" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Archive All/ })).toHaveCount(0);
  await expect(page.getByText(/^Archived /).first()).toBeVisible();
  await page.getByRole("button", { name: "View Active" }).click();
  await expect(page).not.toHaveURL(/archived=true/);
  await expect(page.getByRole("button", { name: "Archive All" })).toBeVisible();
});

test("level cards filter the list, show as selected and live in the URL", async ({ page }) => {
  await openErrors(page);
  const all = await count(page, "all");
  expect(all).toBe((await count(page, "error")) + (await count(page, "warning")) + (await count(page, "info")));
  await page.getByTestId("error-card-warning").click();
  await expect(page).toHaveURL(/level=warning/);
  await expect(page.getByTestId("error-card-warning")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("error-card-all")).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("button", { name: "Archive All Warning" })).toBeVisible();
  const rows = page.getByTestId("error-row");
  await expect(rows.first()).toBeVisible();
  // The previous list stays on screen while the filtered one loads: wait until every row is a warning.
  await expect.poll(async () => [...new Set(await rows.locator("span.rounded-full").allTextContents())], { timeout: 10_000 }).toEqual(["warning"]);
  await page.reload();
  await expect(page.getByTestId("error-card-warning")).toHaveAttribute("aria-pressed", "true");
});

test("a row opens the detail dialog", async ({ page }) => {
  await openErrors(page);
  const first = page.getByTestId("error-row").first();
  const message = (await first.locator("button").first().textContent()) ?? "";
  await first.locator("button").first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  for (const label of ["Level", "Status Code", "Endpoint", "Method", "User", "IP Address", "Message"]) {
    await expect(dialog.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(dialog).toContainText(message);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("archive one entry moves it out of the active view", async ({ page }) => {
  await openErrors(page);
  const before = await count(page, "all");
  const first = page.getByTestId("error-row").first();
  await first.getByRole("button", { name: /^Archive:/ }).click();
  await expect(page.getByText("Error archived", { exact: true })).toBeVisible();
  await expect(page.getByTestId("error-count-all")).toHaveText((before - 1).toLocaleString("en-US"));
});

test("archive all of one level says how many and empties that level", async ({ page }) => {
  await openErrors(page, "?level=info");
  const infos = await count(page, "info");
  const errors = await count(page, "error");
  expect(infos).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Archive All Info" }).click();
  await expect(page.getByText(`Archived ${infos.toLocaleString("en-US")} info error${infos === 1 ? "" : "s"}`, { exact: true })).toBeVisible();
  await expect(page.getByText("No error logs found")).toBeVisible();
  await expect(page.getByTestId("error-count-info")).toHaveText("0");
  await expect(page.getByTestId("error-count-error")).toHaveText(errors.toLocaleString("en-US"));
});

test("cleanup asks first, then deletes archives older than 30 days", async ({ page }) => {
  await openErrors(page, "?archived=true");
  const before = await count(page, "all");
  await page.getByRole("button", { name: "Cleanup Old Archives" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("This will permanently delete all archived errors older than 30 days. Are you sure?");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId("error-count-all")).toHaveText(before.toLocaleString("en-US"));

  await page.getByRole("button", { name: "Cleanup Old Archives" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  const toast = page.getByText(/^Deleted [\d,]+ archived errors? older than 30 days$/);
  await expect(toast).toBeVisible();
  const deleted = Number(((await toast.textContent()) ?? "").match(/Deleted ([\d,]+)/)?.[1]?.replace(/,/g, ""));
  expect(deleted).toBeGreaterThan(0);
  await expect(page.getByTestId("error-count-all")).toHaveText((before - deleted).toLocaleString("en-US"));
});
