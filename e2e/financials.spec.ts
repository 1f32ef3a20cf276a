import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { openAsAdmin } from "./helpers";

/**
 * Financials and payouts (docs/product.md §15) on the payouts server of global-setup: its own demo
 * data, paying the fake Stripe that global-setup runs. The steps depend on each other (the demo's
 * failed payout must be retried before a new run includes its amount), so they are one test.
 */
const payoutsUrl = process.env.E2E_PAYOUTS_BASE_URL;
test.use({ baseURL: payoutsUrl });
test.skip(!payoutsUrl, "needs the payouts server that global-setup starts (not there with E2E_BASE_URL)");

test("retry a failed payout, process payouts with progress, download the CSV", async ({ page }) => {
  test.setTimeout(90_000);
  await openAsAdmin(page, "/");

  // The dashboard's quick action opens Financials with the confirmation; close it for now.
  await page.getByRole("button", { name: "Process Payouts" }).click();
  await expect(page).toHaveURL(/\/financials$/);
  const confirm = page.getByRole("alertdialog", { name: "Process Payouts" });
  await expect(confirm).toContainText(/Pay \d+ artists a total of \$[\d,]+\.\d\d through Stripe\?/);
  await expect(confirm).toContainText(/will be skipped: their payout account is not active/);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();

  // The overview, with the previous period.
  await expect(page.getByRole("heading", { name: "Financials", level: 1 })).toBeVisible();
  await expect(page.getByRole("group", { name: "Gross Sales" })).toContainText(/vs previous period/);
  await expect(page.locator("svg.recharts-surface[role='application']")).toBeVisible();
  await expect(page.getByRole("table", { name: "Balances owed" })).toContainText("Restricted");

  // The demo's failed payout: Stripe's message and 'Retry'; the fake Stripe now pays it.
  const payouts = page.getByRole("table", { name: "Payouts" });
  await page.getByLabel("Status", { exact: true }).click();
  await page.getByRole("option", { name: "Failed" }).click();
  const failedRow = payouts.getByRole("row").filter({ hasText: "capabilities enabled: transfers" });
  await expect(failedRow).toHaveCount(1);
  const artist = (await failedRow.getByRole("cell").nth(1).textContent()) ?? "";
  await failedRow.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText(`Payout to ${artist} queued again`, { exact: true })).toBeVisible();
  await expect.poll(async () => payouts.getByRole("row").filter({ hasText: "capabilities enabled: transfers" }).count(), { timeout: 15_000 }).toBe(0);
  await expect(page.getByText("No payouts yet.")).toBeVisible();
  await page.getByLabel("Status", { exact: true }).click();
  await page.getByRole("option", { name: "Paid" }).click();
  await expect(payouts).toContainText("Paid");

  // Process payouts: the confirmation names how many and how much, then a progress bar until the end.
  await page.getByRole("button", { name: "Process Payouts" }).click();
  await expect(confirm).toBeVisible();
  const pay = confirm.getByRole("button", { name: /^Pay \d+ artists$/ });
  const n = Number((await pay.textContent())?.match(/\d+/)?.[0]);
  expect(n).toBeGreaterThan(5);
  await pay.click();
  await expect(page.getByText("Payout run started", { exact: true })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Payout progress" })).toBeVisible();
  await expect(page.getByText("Payout run completed", { exact: true })).toBeVisible({ timeout: 45_000 });
  const last = page.getByRole("region", { name: "Last payout run" });
  // Every artist the run planned is paid (specs running beside this one may add a payable artist
  // between the confirmation's count and the run's planning, so the count itself may be n or more).
  await expect(last.getByTestId("run-progress")).toContainText(/(\d+) of \1 artists paid/);
  const planned = Number((await last.getByTestId("run-progress").textContent())?.match(/(\d+) of/)?.[1]);
  expect(planned).toBeGreaterThanOrEqual(n);
  await expect(page.getByRole("button", { name: "Process Payouts" })).toBeEnabled();

  // The ones without an active account are still owed.
  await expect(page.getByRole("table", { name: "Balances owed" })).toContainText("Restricted");

  // The CSV of the paid payouts downloads straight to disk.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export Payouts CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^payouts-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await file.path())!, "utf8")
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(csv[0]).toBe("Date,Artist,Amount,Currency,Status,Stripe transfer,Failure,Paid at,Run");
  expect(csv.length).toBeGreaterThan(n);
  expect(csv.slice(1).every((line) => line.includes(",paid,"))).toBe(true);
});
