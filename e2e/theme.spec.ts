import { expect, test, type Page } from "@playwright/test";
import { adminToken, presetSignedIn, screenSettled } from "./screens";

/** The relative luminance (0 black .. 1 white) of a computed CSS colour, read in the page. */
function backgroundLuminance(page: Page, selector = "html"): Promise<number> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel)!;
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = getComputedStyle(el).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = [...ctx.getImageData(0, 0, 1, 1).data].map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  }, selector);
}

async function chooseTheme(page: Page, label: "Light" | "Dark" | "System") {
  await page.getByRole("button", { name: /^User menu for / }).click();
  await page.getByRole("menuitemradio", { name: label }).click();
}

/** Issue 23: light, dark and system, chosen in the user menu, remembered per browser, applied before the first paint. */
test.describe("theme", () => {
  test("follows the system's dark setting when nothing is chosen", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await presetSignedIn(page, await adminToken(page));
    await page.goto("/");
    await screenSettled(page, "Dashboard");
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    expect(await backgroundLuminance(page)).toBeLessThan(0.05);
    // A card of the dashboard is dark too, and its text light.
    expect(await backgroundLuminance(page, "main [role=group]")).toBeLessThan(0.05);
    await page.emulateMedia({ colorScheme: "light" });
    await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.9);
  });

  test("the choice from the user menu persists across a reload, and the first paint's background is the theme's", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await presetSignedIn(page, await adminToken(page));
    await page.goto("/");
    await screenSettled(page, "Dashboard");
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.9);

    await chooseTheme(page, "Dark");
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    await page.reload();
    await screenSettled(page, "Dashboard");
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);

    // Before the app's JS: with every bundled script refused, only theme-init.js and the stylesheet
    // run, and the page is already dark — what the browser paints first.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    await expect(page.locator("#root")).toBeEmpty();
    expect(await backgroundLuminance(page)).toBeLessThan(0.05);
    await page.unrouteAll();

    // Light, chosen under a dark system, wins over the system and persists too.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await screenSettled(page, "Dashboard");
    await chooseTheme(page, "Light");
    await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.reload();
    await expect(page.locator("#root")).toBeEmpty();
    await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.9);
    await page.unrouteAll();

    // System again: the stored choice is forgotten and the system's dark setting applies.
    await page.reload();
    await screenSettled(page, "Dashboard");
    await chooseTheme(page, "System");
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => window.localStorage.getItem("theme"))).toBeNull();
  });
});
