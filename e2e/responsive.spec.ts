import { expect, test } from "@playwright/test";
import { adminToken, overflowingElements, presetSignedIn, SCREENS, screenSettled, sidewaysOverflow } from "./screens";

/** Issue 23: phones and small windows. Nothing overflows at 390 px; the navigation folds into a drawer. */
test.describe("responsive layout", () => {
  test.describe.configure({ timeout: 120_000 });

  for (const width of [390, 1440]) {
    test(`no screen overflows sideways at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 844 });
      await presetSignedIn(page, await adminToken(page));
      const vendors = await page.request.get("/api/admin/vendors?limit=1", { headers: { Authorization: `Bearer ${await adminToken(page)}` } });
      const firstVendor = ((await vendors.json()) as { vendors: Array<{ id: string; name: string }> }).vendors[0]!;
      const screens = [...SCREENS, { path: `/vendors/${firstVendor.id}`, heading: firstVendor.name }];
      // Every screen is checked and every failure named (soft), not only the first.
      for (const screen of screens) {
        await test
          .step(screen.path, async () => {
            await page.goto(screen.path);
            await screenSettled(page, screen.heading);
            const overflow = await sidewaysOverflow(page);
            expect.soft(overflow, `${screen.path} at ${width} px overflows by ${overflow} px: ${(await overflowingElements(page)).join(", ")}`).toBe(0);
          })
          .catch((error: unknown) => expect.soft(String(error), `${screen.path} did not settle`).toBe(""));
      }
    });

    test(`empty, loading and error states fit at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 844 });
      await presetSignedIn(page, await adminToken(page));
      // Empty: a search nothing matches.
      await page.goto("/vendors?search=zzzz-no-such-vendor-zzzz");
      await screenSettled(page, "Vendors");
      expect(await sidewaysOverflow(page), (await overflowingElements(page)).join(", ")).toBe(0);
      // Loading: the dashboard's answer held back.
      let release: () => void = () => {};
      const held = new Promise<void>((r) => (release = r));
      await page.route("**/api/admin/dashboard/**", async (route) => {
        await held;
        await route.continue().catch(() => {});
      });
      await page.goto("/");
      await expect(page.getByRole("status").filter({ hasText: "Loading dashboard" })).toBeAttached();
      expect(await sidewaysOverflow(page), (await overflowingElements(page)).join(", ")).toBe(0);
      release();
      await page.unrouteAll({ behavior: "wait" });
      // Error: the dashboard's answer fails.
      await page.route("**/api/admin/dashboard/**", (route) => route.fulfill({ status: 400, json: { error: { code: "bad_request", message: "Boom" } } }));
      await page.goto("/");
      await expect(page.getByText("Error loading dashboard")).toBeVisible({ timeout: 20_000 });
      expect(await sidewaysOverflow(page), (await overflowingElements(page)).join(", ")).toBe(0);
    });
  }

  test("below 768 px the menu button opens the navigation as a drawer that traps focus, closes on Escape and returns focus", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await presetSignedIn(page, await adminToken(page));
    await page.goto("/");
    await screenSettled(page, "Dashboard");
    // The sidebar is folded away: no navigation on screen until the menu button opens it.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const menuButton = page.getByRole("button", { name: "Open navigation" });
    await menuButton.focus();
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog");
    await expect(drawer.getByRole("navigation", { name: "Main" })).toBeVisible();
    // The spec's 11 entries, Orders and, for an admin, Integrations.
    await expect(drawer.getByRole("link")).toHaveCount(13);
    // Focus stays inside: tabbing through more stops than the drawer has never leaves it.
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press("Tab");
      expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(menuButton).toBeFocused();
    // A link in the drawer goes to its screen and closes the drawer.
    await menuButton.click();
    await page.getByRole("dialog").getByRole("link", { name: "Vendors", exact: true }).click();
    await expect(page).toHaveURL(/\/vendors$/);
    await expect(page.getByRole("dialog")).toBeHidden();
    await screenSettled(page, "Vendors");
  });

  test("dialogs fit a 390 px screen", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await presetSignedIn(page, await adminToken(page));
    const fits = async (dialog: ReturnType<typeof page.getByRole>) => {
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.y + box.height).toBeLessThanOrEqual(844);
      expect(await sidewaysOverflow(page)).toBe(0);
    };
    // A confirmation (AlertDialog): disabling a vendor.
    await page.goto("/vendors");
    await screenSettled(page, "Vendors");
    await page
      .getByRole("button", { name: /^(Disable|Enable) / })
      .first()
      .click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await fits(page.getByRole("alertdialog"));
    await page.keyboard.press("Escape");
    await expect(page.getByRole("alertdialog")).toBeHidden();
    // A dialog with long content: an error log's details.
    await page.goto("/errors");
    await screenSettled(page, "Error Logs");
    // The message is the way into an entry's details.
    await page.getByTestId("error-row").first().locator("button").first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await fits(page.getByRole("dialog"));
  });

  test("from 768 px the navigation is a sidebar and there is no menu button", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 800 });
    await presetSignedIn(page, await adminToken(page));
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Open navigation" })).toBeHidden();
  });
});
