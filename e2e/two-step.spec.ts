import { expect, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { E2E, presetBetaMarker, signIn } from "./helpers";

/**
 * Two-step sign-in (docs/product.md "Two-step sign-in") in Chromium: a fresh staff member enrols
 * an authenticator app from the user menu (reading the key shown for typing by hand), signs out,
 * and signs in with the password and a code computed here as the app would.
 */
const code = (secret: string, timestamp = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp });

test("enrol from the user menu, sign out, sign in with password and code", async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = `e2e-two-step-${Date.now()}@example.com`;
  const password = "two-step e2e password";

  // A fresh staff member, as an admin's invitation makes one (the API the Users screen calls).
  const admin = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  const { token: adminToken } = (await admin.json()) as { token: string };
  const invited = await request.post("/api/admin/users/invite", { data: { email, role: "admin" }, headers: { authorization: `Bearer ${adminToken}` } });
  expect(invited.status()).toBe(201);
  const link = ((await invited.json()) as { invitation: { link: string } }).invitation.link;
  const accepted = await request.post("/api/auth/invitations/accept", { data: { token: new URL(link).searchParams.get("token"), name: "Two Step", password } });
  expect(accepted.ok()).toBe(true);

  await presetBetaMarker(page);
  await page.goto("/");
  await signIn(page, email, password);
  await expect(page.getByText("Platform Management Dashboard")).toBeVisible();

  // Enrol: the key shown beside the QR code is what the app would hold.
  await page.getByRole("button", { name: `User menu for ${email}` }).click();
  await page.getByRole("menuitem", { name: "Two-step sign-in" }).click();
  const dialog = page.getByRole("dialog", { name: "Two-step sign-in" });
  await dialog.getByRole("button", { name: "Set up" }).click();
  await expect(dialog.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await dialog.getByTestId("two-step-secret").textContent())!.trim();
  const enrolledAt = Date.now();
  await dialog.getByLabel("Code from the app").fill(code(secret, enrolledAt));
  await dialog.getByRole("button", { name: "Turn on" }).click();
  await expect(dialog.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await dialog.getByRole("button", { name: "Done" }).click();

  // Sign out; the password alone no longer opens the panel.
  await page.getByRole("button", { name: /User menu for/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await signIn(page, email, password);
  await expect(page.getByRole("heading", { name: "Two-step sign-in" })).toBeVisible();
  await expect(page.getByText("Platform Management Dashboard")).toBeHidden();

  // The code that turned it on was accepted once: wait for the app's next code, as a user would.
  const nextStepAt = (Math.floor(enrolledAt / 30_000) + 1) * 30_000;
  await page.waitForTimeout(Math.max(0, nextStepAt - Date.now()) + 500);
  await page.getByLabel("Code", { exact: true }).fill(code(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Platform Management Dashboard")).toBeVisible();
});
