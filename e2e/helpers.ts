import { expect, type Page } from "@playwright/test";
import { E2E } from "./test-env";

export { E2E };

export const BETA_MARKER_KEY = "beta-access";

/** Passes the beta gate through its form, as a visitor would. */
export async function passBetaGate(page: Page, path = "/"): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Private Beta Access" })).toBeVisible();
  await page.getByLabel("Beta Access Password").fill(E2E.betaPassword);
  await page.getByRole("button", { name: "Access Beta" }).click();
  await expect(page.getByRole("heading", { name: "Private Beta Access" })).toBeHidden();
}

/** Skips the gate's form by storing a fresh marker before the app loads (for tests about later screens). */
export async function presetBetaMarker(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    // Only when absent, so tests can still observe what the app does to the marker.
    if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, JSON.stringify({ timestamp: Date.now() }));
  }, BETA_MARKER_KEY);
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await expect(page.getByText("Administrator access required")).toBeVisible();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Opens `path` past the gate, signed in as the seeded admin, and waits for the layout. */
export async function openAsAdmin(page: Page, path = "/"): Promise<void> {
  await presetBetaMarker(page);
  await page.goto(path);
  await signIn(page, E2E.adminEmail, E2E.adminPassword);
  await expect(page.getByText("Platform Management Dashboard")).toBeVisible();
}

export function mainNav(page: Page) {
  return page.getByRole("navigation", { name: "Main" });
}
