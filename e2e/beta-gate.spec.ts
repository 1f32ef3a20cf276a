import { expect, test } from "@playwright/test";
import { BETA_MARKER_KEY, passBetaGate } from "./helpers";

const DAY_MS = 86_400_000;

test.describe("private beta gate", () => {
  test("shows the spec's texts", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Private Beta Access" })).toBeVisible();
    await expect(page.getByLabel("Beta Access Password")).toBeVisible();
    await expect(page.getByRole("button", { name: "Access Beta" })).toBeVisible();
    await expect(page.getByText("This is a private beta. Contact support if you need access.")).toBeVisible();
  });

  test("a wrong password shows 'Invalid password' and clears the field", async ({ page }) => {
    await page.goto("/");
    const field = page.getByLabel("Beta Access Password");
    await field.fill("definitely-wrong");
    await page.getByRole("button", { name: "Access Beta" }).click();
    await expect(page.getByText("Invalid password")).toBeVisible();
    await expect(field).toHaveValue("");
    expect(await page.evaluate((k) => localStorage.getItem(k), BETA_MARKER_KEY)).toBeNull();
  });

  test("the right password stores a timestamp and shows the app", async ({ page }) => {
    const before = Date.now();
    await passBetaGate(page);
    await expect(page.getByText("Administrator access required")).toBeVisible();
    const raw = await page.evaluate((k) => localStorage.getItem(k), BETA_MARKER_KEY);
    const marker = JSON.parse(raw ?? "{}") as { timestamp?: number };
    expect(marker.timestamp).toBeGreaterThanOrEqual(before - 5_000);
    // A reload keeps the gate open while the marker is fresh.
    await page.reload();
    await expect(page.getByText("Administrator access required")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Private Beta Access" })).toBeHidden();
  });

  test("an expired marker is removed and the gate shows", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(([k, ts]) => localStorage.setItem(k, JSON.stringify({ timestamp: ts })), [BETA_MARKER_KEY, Date.now() - DAY_MS - 60_000] as const);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Private Beta Access" })).toBeVisible();
    await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), BETA_MARKER_KEY)).toBeNull();
  });

  test("the beta password is not in the shipped JavaScript", async ({ page, request }) => {
    const scripts: string[] = [];
    page.on("response", (res) => {
      if (res.url().endsWith(".js")) scripts.push(res.url());
    });
    await passBetaGate(page);
    await expect(page.getByText("Administrator access required")).toBeVisible();
    expect(scripts.length).toBeGreaterThan(0);
    for (const url of scripts) {
      const body = await (await request.get(url)).text();
      expect(body, url).not.toContain("e2e-beta-password");
    }
  });
});
