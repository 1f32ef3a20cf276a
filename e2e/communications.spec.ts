import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { simpleParser } from "mailparser";
import { E2E, openAsAdmin } from "./helpers";

/**
 * Communications (docs/product.md §17): from the dashboard's quick action to the composer, a live
 * preview, a send to the inactive artists, its progress to 'Sent', and the mails themselves in the
 * server's MAIL_DIR (no SMTP_URL: .eml files, set by global-setup).
 */
test("compose, preview, send to the inactive artists, watch it reach 'Sent' and open the mail in the .eml folder", async ({ page }) => {
  const mailDir = process.env.E2E_MAIL_DIR;
  expect(mailDir, "E2E_MAIL_DIR (set by e2e/global-setup.ts, or by whoever started the server)").toBeTruthy();
  const title = `Studio hours ${Date.now()}`;

  // How many inactive artists there are, as the API counts them (the preview sends nothing).
  const signIn = await page.request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  const { token } = (await signIn.json()) as { token: string };
  const counted = await page.request.post("/api/admin/communications/preview", {
    headers: { authorization: `Bearer ${token}` },
    data: { title: "T", message: "M", audience: "inactive", channels: ["email"] },
  });
  const inactive = ((await counted.json()) as { recipients: number }).recipients;
  expect(inactive).toBeGreaterThan(0);
  const artists = `${inactive} artist${inactive === 1 ? "" : "s"}`;

  await openAsAdmin(page, "/");
  await page.getByRole("button", { name: "Send Announcement" }).click();
  await expect(page).toHaveURL(/\/communications\?compose=1$/);
  await expect(page.getByRole("heading", { name: "Communications", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Title")).toBeFocused();

  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Message").fill("Hello again!\n\nThe studio is open **every Saturday**. Details: https://hki.global/studio");
  await page.getByLabel("Send to").selectOption("inactive");
  await expect(page.getByTestId("announcement-reach")).toHaveText(`Reaches ${artists}`);
  const preview = page.frameLocator('iframe[title="E-mail preview"]');
  await expect(preview.locator("h1")).toHaveText(title);
  await expect(preview.locator("strong")).toHaveText("every Saturday");

  await page.getByRole("button", { name: "Send", exact: true }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(`to ${artists} by e-mail`);
  await dialog.getByRole("button", { name: `Send to ${artists}` }).click();

  const progress = page.getByTestId("announcement-progress");
  await expect(progress.getByText("Sent", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(progress).toContainText(`${inactive} sent, 0 failed, 0 pending`);

  // The announcement's page: every recipient sent; the history lists it.
  await progress.getByRole("link", { name: `Open “${title}”` }).click();
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  const rows = page.getByRole("table", { name: "Recipients" }).getByRole("row");
  await expect(rows).toHaveCount(Math.min(inactive, 20) + 1);
  const id = page.url().split("/").pop()!;

  // The mails, one .eml per artist, named after the announcement.
  const files = readdirSync(mailDir!).filter((f) => f.includes(id) && f.endsWith(".eml"));
  expect(files).toHaveLength(inactive);
  const mail = await simpleParser(readFileSync(join(mailDir!, files[0]!)));
  expect(mail.subject).toBe(title);
  expect(mail.replyTo?.text).toBe("support@hki.global");
  expect(mail.text).toContain("The studio is open every Saturday.");
  expect(mail.html).toContain("<strong>every Saturday</strong>");
  expect(mail.html).toContain('href="https://hki.global/studio"');
  expect(mail.messageId).toMatch(new RegExp(`^<${id}\\.[0-9a-f-]+@hki-global-admin>$`));
});
