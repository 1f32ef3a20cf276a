import { expect, test } from "@playwright/test";
import { adminToken, presetSignedIn, screenSettled } from "./screens";

/** Issue 23: the command palette and '/', by keyboard only. */
test.describe("keyboard", () => {
  test("Ctrl+K goes to a screen and to a vendor by name, by keyboard only; Escape returns focus", async ({ page }) => {
    const token = await adminToken(page);
    const answer = await page.request.get("/api/admin/vendors?limit=1", { headers: { Authorization: `Bearer ${token}` } });
    const vendor = ((await answer.json()) as { vendors: Array<{ id: string; name: string }> }).vendors[0]!;
    await presetSignedIn(page, token);
    await page.goto("/");
    await screenSettled(page, "Dashboard");

    // A screen: type part of its name, Enter.
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    await expect(palette).toBeVisible();
    await expect(palette.getByRole("combobox")).toBeFocused();
    await page.keyboard.type("error lo");
    await expect(palette.getByRole("option", { name: "Error Logs" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await expect(palette).toBeHidden();
    await expect(page).toHaveURL(/\/errors$/);
    await screenSettled(page, "Error Logs");

    // A vendor: found by name on the server, chosen with the arrow keys.
    await page.keyboard.press("Control+k");
    // Keys typed before the search field has focus would go to the page (as for a person typing ahead).
    await expect(palette.getByRole("combobox")).toBeFocused();
    await page.keyboard.type(vendor.name);
    const option = palette.getByRole("option", { name: new RegExp(vendor.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) }).first();
    await expect(option).toBeVisible();
    for (let i = 0; i < 20 && (await option.getAttribute("aria-selected")) !== "true"; i++) await page.keyboard.press("ArrowDown");
    await expect(option).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/vendors/${vendor.id}$`));

    // Escape closes it and gives focus back to where it was.
    const search = page.getByRole("button", { name: "Search screens, vendors and products" });
    await search.focus();
    await page.keyboard.press("Enter");
    await expect(palette).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(palette).toBeHidden();
    await expect(search).toBeFocused();
  });

  test("'/' focuses the current list's search, and not while typing", async ({ page }) => {
    await presetSignedIn(page, await adminToken(page));
    await page.goto("/vendors");
    await screenSettled(page, "Vendors");
    const search = page.getByRole("main").getByRole("searchbox");
    await expect(search).not.toBeFocused();
    await page.keyboard.press("/");
    await expect(search).toBeFocused();
    await expect(search).toHaveValue("");
    await page.keyboard.type("a/b");
    await expect(search).toHaveValue("a/b");
  });

  test("every control of the top bar is reached with Tab and shows a focus ring", async ({ page }) => {
    await presetSignedIn(page, await adminToken(page));
    await page.goto("/");
    await screenSettled(page, "Dashboard");
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        const ring = style.boxShadow !== "none" || (style.outlineStyle !== "none" && style.outlineWidth !== "0px");
        return { name: el.getAttribute("aria-label") ?? el.textContent?.trim() ?? "", ring };
      });
      seen.push(focused.name);
      expect(focused.ring, `${focused.name} shows no focus ring`).toBe(true);
    }
    expect(seen).toEqual(expect.arrayContaining(["Skip to content", "Search screens, vendors and products", "User menu for admin@hki.global", "Dashboard", "Vendors"]));
  });
});
