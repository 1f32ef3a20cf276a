import { expect, test } from "@playwright/test";
import { E2E, mainNav, openAsAdmin, presetBetaMarker, signIn } from "./helpers";

test.describe("authentication", () => {
  test("the sign-in screen has the spec's texts and the 'Are you lost?' box", async ({ page }) => {
    await presetBetaMarker(page);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "HKI Global Admin" })).toBeVisible();
    await expect(page.getByText("Administrator access required")).toBeVisible();
    await expect(page.getByText("Are you lost?")).toBeVisible();
    await expect(page.getByRole("link", { name: /store/i })).toHaveAttribute("href", E2E.storefrontUrl);
  });

  test("wrong credentials show a message and keep the user signed out", async ({ page }) => {
    await presetBetaMarker(page);
    await page.goto("/");
    await signIn(page, E2E.adminEmail, "not-the-password");
    await expect(page.getByRole("alert")).toHaveText("Invalid e-mail or password.");
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
    await expect(page.getByText("Platform Management Dashboard")).toBeHidden();
  });

  test("the admin signs in and sees the layout", async ({ page }) => {
    await openAsAdmin(page);
    await expect(page.getByText("HKI Global Admin", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: `User menu for ${E2E.adminEmail}` })).toBeVisible();
    // The session survives a reload.
    await page.reload();
    await expect(page.getByText("Platform Management Dashboard")).toBeVisible();
  });

  test("a signed-in non-admin sees Access Denied with 'Go to Store'", async ({ page }) => {
    await presetBetaMarker(page);
    await page.goto("/");
    await signIn(page, E2E.userEmail, E2E.userPassword);
    await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
    await expect(page.getByText("You don't have permission to access the admin panel.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to Store" })).toHaveAttribute("href", E2E.storefrontUrl);
    await expect(page.getByText("Platform Management Dashboard")).toBeHidden();
  });

  test("sign-out revokes the session and returns to '/'", async ({ page }) => {
    await openAsAdmin(page, "/settings");
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    const token = await page.evaluate(() => localStorage.getItem("hki-admin-session"));
    expect(token).toBeTruthy();

    await page.getByRole("button", { name: `User menu for ${E2E.adminEmail}` }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(page.getByText("Administrator access required")).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.evaluate(() => localStorage.getItem("hki-admin-session"))).toBeNull();

    // The old token no longer works on the server.
    const me = await page.request.get("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(401);

    // Signing in again lands on the dashboard.
    await signIn(page, E2E.adminEmail, E2E.adminPassword);
    await expect(mainNav(page).getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
  });
});
