import { readFileSync } from "node:fs";
import { type APIRequestContext, type Browser, type Page, expect, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { E2E, openAsAdmin, presetBetaMarker, signIn } from "./helpers";

const PASSWORD = "e2e staff passphrase";
const code = (secret: string, timestamp: number) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp });

/** A staff member in `role`, invited by the admin and accepted through the API the screens call: their session token. */
async function staffMember(request: APIRequestContext, role: "finance" | "support"): Promise<{ email: string; token: string }> {
  const admin = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  const { token: adminToken } = (await admin.json()) as { token: string };
  const email = `e2e-${role}-${Date.now()}@example.com`;
  const invited = await request.post("/api/admin/users/invite", { data: { email, role }, headers: { authorization: `Bearer ${adminToken}` } });
  expect(invited.status()).toBe(201);
  const link = ((await invited.json()) as { invitation: { link: string } }).invitation.link;
  const accepted = await request.post("/api/auth/invitations/accept", { data: { token: new URL(link).searchParams.get("token"), name: `E2E ${role}`, password: PASSWORD } });
  expect(accepted.ok()).toBe(true);
  return { email, token: ((await accepted.json()) as { token: string }).token };
}

/** A browser of its own, signed in as `email` with the password alone. */
async function signedInAs(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: payoutsUrl })).newPage();
  await presetBetaMarker(page);
  await page.goto("/financials");
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole("heading", { name: "Financials", level: 1 })).toBeVisible();
  return page;
}

/**
 * Financials and payouts (docs/product.md §15) on the payouts server of global-setup: its own demo
 * data, paying the fake Stripe that global-setup runs. The steps depend on each other (the demo's
 * failed payout must be retried before a new run includes its amount), so they are one test.
 */
const payoutsUrl = process.env.E2E_PAYOUTS_BASE_URL;
test.use({ baseURL: payoutsUrl });
test.skip(!payoutsUrl, "needs the payouts server that global-setup starts (not there with E2E_BASE_URL)");

test("retry a failed payout; finance processes payouts after confirming it's them, support sees why it cannot; progress; the CSV", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
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

  // Support sees 'Process Payouts' disabled, saying who may (docs/product.md §14.1).
  const support = await staffMember(request, "support");
  const supportPage = await signedInAs(browser, support.email);
  await expect(supportPage.getByRole("button", { name: "Process Payouts" })).toBeDisabled();
  await expect(supportPage.getByRole("note", { name: "Your role (support) cannot do this: only admins and finance can" }).first()).toBeVisible();

  // Finance, signed in before setting up two-step sign-in, has no recent check: starting a run asks
  // for a code in the flow itself ('Confirm it's you', docs/product.md §1.7), then goes ahead.
  const finance = await staffMember(request, "finance");
  const financePage = await signedInAs(browser, finance.email);
  const setup = await request.post("/api/auth/two-step/setup", { headers: { authorization: `Bearer ${finance.token}` } });
  const { secret } = (await setup.json()) as { secret: string };
  const enrolledAt = Date.now();
  expect((await request.post("/api/auth/two-step/confirm", { data: { code: code(secret, enrolledAt) }, headers: { authorization: `Bearer ${finance.token}` } })).ok()).toBe(true);
  await financePage.getByRole("button", { name: "Process Payouts" }).click();
  const stepUp = financePage.getByRole("dialog", { name: "Confirm it's you" });
  await expect(stepUp).toBeVisible();
  // The next 30-second step's code: the one that turned two-step sign-in on was accepted once already.
  await stepUp.getByLabel("Code from the app").fill(code(secret, enrolledAt + 30_000));
  await stepUp.getByRole("button", { name: "Confirm" }).click();
  await expect(stepUp).toBeHidden();

  // Process payouts: the confirmation names how many and how much, then a progress bar until the end.
  const financeConfirm = financePage.getByRole("alertdialog", { name: "Process Payouts" });
  await expect(financeConfirm).toBeVisible();
  const pay = financeConfirm.getByRole("button", { name: /^Pay \d+ artists$/ });
  const n = Number((await pay.textContent())?.match(/\d+/)?.[0]);
  expect(n).toBeGreaterThan(5);
  await pay.click();
  // Within the 10 minutes of that check the run itself is not asked for again.
  await expect(financePage.getByText("Payout run started", { exact: true })).toBeVisible();
  await expect(stepUp).toBeHidden();
  await expect(financePage.getByRole("progressbar", { name: "Payout progress" })).toBeVisible();
  await expect(financePage.getByText("Payout run completed", { exact: true })).toBeVisible({ timeout: 45_000 });
  await page.reload();
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
