import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { adminToken, presetSignedIn, SCREENS, screenSettled } from "./screens";

/**
 * Issue 23: axe-core on every route in both themes, no serious or critical violation (colour
 * contrast included: the dark theme's pairs are checked as the light theme's are).
 */
test.describe("accessibility (axe)", () => {
  test.describe.configure({ timeout: 180_000 });

  for (const theme of ["light", "dark"] as const) {
    test(`every screen in the ${theme} theme`, async ({ page }) => {
      const token = await adminToken(page);
      const answer = await page.request.get("/api/admin/vendors?limit=1", { headers: { Authorization: `Bearer ${token}` } });
      const vendor = ((await answer.json()) as { vendors: Array<{ id: string; name: string }> }).vendors[0]!;
      await page.addInitScript((choice) => window.localStorage.setItem("theme", choice), theme);
      await presetSignedIn(page, token);
      const screens = [...SCREENS, { path: `/vendors/${vendor.id}`, heading: vendor.name }];
      for (const screen of screens) {
        await test
          .step(screen.path, async () => {
            await page.goto(screen.path);
            await screenSettled(page, screen.heading);
            expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
            const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
            const serious = results.violations
              .filter((v) => v.impact === "serious" || v.impact === "critical")
              .map(
                (v) =>
                  `${v.id} (${v.impact}): ${v.nodes
                    .slice(0, 3)
                    .map((n) => `${n.target.join(" ")} ${n.failureSummary?.split("\n")[1] ?? ""}`)
                    .join(" | ")}`,
              );
            expect.soft(serious, `${screen.path} in the ${theme} theme`).toEqual([]);
          })
          .catch((error: unknown) => expect.soft(String(error), `${screen.path} did not settle`).toBe(""));
      }
    });
  }

  test("the open menus and dialogs of the layout, in both themes", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await presetSignedIn(page, await adminToken(page));
    for (const theme of ["light", "dark"] as const) {
      await page.goto("/");
      await page.evaluate((choice) => window.localStorage.setItem("theme", choice), theme);
      await page.reload();
      await screenSettled(page, "Dashboard");
      const check = async (what: string) => {
        const results = await new AxeBuilder({ page }).analyze();
        const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        expect.soft(serious, `${what} in the ${theme} theme`).toEqual([]);
      };
      await page.getByRole("button", { name: "Open navigation" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await check("the navigation drawer");
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: /^User menu for / }).click();
      await expect(page.getByRole("menu")).toBeVisible();
      await check("the user menu");
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+k");
      await page.keyboard.type("ven");
      await expect(page.getByRole("option").first()).toBeVisible();
      await check("the command palette");
      await page.keyboard.press("Escape");
    }
  });
});
