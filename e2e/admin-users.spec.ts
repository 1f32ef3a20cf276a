import { expect, test, type Page } from "@playwright/test";
import { mainNav, openAsAdmin, signIn } from "./helpers";

/**
 * Staff, roles and the audit log (docs/product.md §14), end to end: an admin invites a viewer; the
 * link opens in a fresh browser (no beta marker, nobody signed in); the viewer accepts, is signed in
 * read-only and sees actions disabled; the admin promotes them, then removes their access; the
 * Activity tab shows each step with its before/after values.
 */
const PASSWORD = "e2e viewer passphrase";

async function openStaffTab(page: Page, tab: "Users" | "Invitations" | "Activity"): Promise<void> {
  await mainNav(page).getByRole("link", { name: "Admin Users" }).click();
  await expect(page.getByRole("heading", { name: "Admin Users", level: 1 })).toBeVisible();
  await page.getByRole("tab", { name: tab }).click();
}

test("invite a viewer, accept in a fresh browser, read-only; promote; remove; every step in Activity", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const email = `e2e-viewer-${Date.now()}@example.com`;

  // 1. The admin invites a viewer and gets the link (shown once).
  await openAsAdmin(page, "/");
  await openStaffTab(page, "Invitations");
  await page.getByRole("button", { name: "Invite" }).click();
  const invite = page.getByRole("dialog", { name: "Invite to the admin panel" });
  await invite.getByLabel("E-mail").fill(email);
  await invite.getByLabel("Role").selectOption("viewer");
  await invite.getByRole("button", { name: "Send invitation" }).click();
  const sent = page.getByRole("dialog", { name: "Invitation sent" });
  const link = await sent.getByLabel("Invitation link").inputValue();
  expect(link).toMatch(/\/accept-invite\?token=[\w-]{43}$/);
  await sent.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId(`invitation-row-${email}`).getByText("Pending")).toBeVisible();

  // 2. A fresh browser opens the link: no beta password asked, the accept form shows.
  const fresh = await browser.newContext();
  const guest = await fresh.newPage();
  await guest.goto(link);
  await expect(guest.getByRole("heading", { name: "Join HKI Global Admin" })).toBeVisible();
  await expect(guest.getByText(`${email} is invited as a viewer (every screen, read-only).`, { exact: false })).toBeVisible();
  await expect(guest.getByRole("heading", { name: "Private Beta Access" })).toBeHidden();
  await guest.getByLabel("Your name").fill("Vera Viewer");
  await guest.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await guest.getByLabel("Repeat password").fill(PASSWORD);
  await guest.getByRole("button", { name: "Accept invitation" }).click();

  // 3. Signed in, read-only: the banner, and actions disabled with the reason.
  await expect(guest.getByText("Platform Management Dashboard")).toBeVisible();
  await expect(guest.getByText("Read-only access: you can see every screen, but changes are disabled.")).toBeVisible();
  await guest.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Vendors" }).click();
  const firstDisable = guest.getByRole("button", { name: /^Disable / }).first();
  await expect(firstDisable).toBeDisabled();
  await expect(guest.getByRole("note", { name: "Read-only access: viewers cannot make changes" }).first()).toBeVisible();
  await guest.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(guest.getByRole("button", { name: "Save Changes" })).toBeDisabled();

  // The link worked once: opening it again says so.
  const again = await fresh.newPage();
  await again.goto(link);
  await expect(again.getByRole("alert")).toHaveText("This invitation was already used. Sign in with the password you chose.");
  await again.close();

  // Signing out and in again with the chosen password works.
  await guest.getByRole("button", { name: `User menu for ${email}` }).click();
  await guest.getByRole("menuitem", { name: "Sign out" }).click();
  await signIn(guest, email, PASSWORD);
  await expect(guest.getByText("Read-only access: you can see every screen, but changes are disabled.")).toBeVisible();

  // 4. The admin promotes the viewer: after a reload the actions are enabled for them.
  await openStaffTab(page, "Users");
  const row = page.getByTestId(`staff-row-${email}`);
  await expect(row.getByText("Viewer", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: `Change the role of ${email}` }).click();
  const roleDialog = page.getByRole("dialog", { name: "Change role" });
  await roleDialog.getByRole("combobox", { name: "Role" }).selectOption("admin");
  await roleDialog.getByRole("button", { name: "Change role" }).click();
  await expect(row.getByText("Admin", { exact: true })).toBeVisible();
  await guest.goto("/vendors");
  await expect(guest.getByRole("button", { name: /^Disable / }).first()).toBeEnabled();
  await expect(guest.getByText("Read-only access: you can see every screen, but changes are disabled.")).toBeHidden();

  // 5. The admin removes the access: the invitee's session ends at once.
  await row.getByRole("button", { name: `Remove access of ${email}` }).click();
  await expect(page.getByRole("alertdialog")).toContainText("loses access to the admin panel at once");
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove access" }).click();
  await expect(page.getByText(`Access removed for ${email}`, { exact: true })).toBeVisible();
  await expect(row).toBeHidden();
  await guest.reload();
  await expect(guest.getByText("Administrator access required")).toBeVisible();
  await fresh.close();

  // 6. Activity shows every step with its diff (filtered by action through the URL, so other
  // tests' entries written meanwhile cannot push them off the page).
  await openStaffTab(page, "Activity");
  const entries = page.getByTestId("activity-entry");
  for (const action of ["invitation.create", "invitation.accept", "user.role_change", "user.access_remove"]) {
    await page.goto(`/admin-users?tab=activity&action=${action}`);
    await expect(page.getByLabel("Action")).toHaveValue(action);
    await expect(entries.filter({ hasText: email }).first(), action).toBeVisible();
  }
  await page.goto("/admin-users?tab=activity&action=user.role_change");
  const promoted = entries.filter({ hasText: email });
  await expect(promoted).toHaveCount(1);
  await promoted.getByRole("button", { name: "Show changes" }).click();
  const change = promoted.getByRole("table", { name: "Changes" }).getByRole("row", { name: /role/ });
  await expect(change).toContainText("viewer");
  await expect(change).toContainText("admin");

  // "Only this target" narrows to the user; the filter is kept in the URL.
  await promoted.getByRole("button", { name: /^Only activity of user / }).click();
  await expect(page).toHaveURL(/tab=activity&targetType=user&targetId=/);
  await expect(entries.filter({ hasText: "user.access_remove" })).toHaveCount(1);
  await expect(entries.filter({ hasText: "invitation.create" })).toHaveCount(0);
});

test("the vendor detail and the settings link to their own activity", async ({ page }) => {
  await openAsAdmin(page, "/settings");
  await page.getByRole("link", { name: "View activity" }).click();
  await expect(page).toHaveURL(/\/admin-users\?tab=activity&targetType=settings&targetId=platform$/);
  await expect(page.getByLabel("Target type")).toHaveValue("settings");
  await expect(page.getByLabel("Target id")).toHaveValue("platform");

  await mainNav(page).getByRole("link", { name: "Vendors" }).click();
  const vendorLink = page.getByRole("table").getByRole("link").first();
  const name = (await vendorLink.textContent()) ?? "";
  await vendorLink.click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "View activity" }).click();
  await expect(page).toHaveURL(/\/admin-users\?tab=activity&targetType=vendor&targetId=[\w-]+$/);
  await expect(page.getByLabel("Target type")).toHaveValue("vendor");
});
