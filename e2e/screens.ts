import { expect, type Page } from "@playwright/test";
import { E2E } from "./test-env";

/** Every screen of the navigation (docs/product.md §2.2) with the heading it shows, for the issue 23 passes. */
export const SCREENS = [
  { path: "/", heading: "Dashboard" },
  { path: "/vendors", heading: "Vendors" },
  { path: "/products", heading: "Products" },
  { path: "/orders", heading: "Orders" },
  { path: "/financials", heading: "Financials" },
  { path: "/analytics", heading: "Analytics" },
  { path: "/invite-codes", heading: "Invite Codes" },
  { path: "/communications", heading: "Communications" },
  { path: "/admin-users", heading: "Admin Users" },
  { path: "/integrations", heading: "Integrations" },
  { path: "/errors", heading: "Error Logs" },
  { path: "/settings", heading: "Settings" },
  { path: "/system-debug", heading: "System Debug" },
] as const;

/** Signs the seeded admin in through the API: the token and beta marker the app reads at boot. */
export async function adminToken(page: Page): Promise<string> {
  const res = await page.request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

/** Before any page script runs: the beta marker and the admin's session (no sign-in form). */
export async function presetSignedIn(page: Page, token: string): Promise<void> {
  await page.addInitScript((t) => {
    if (!window.localStorage.getItem("beta-access")) window.localStorage.setItem("beta-access", JSON.stringify({ timestamp: Date.now() }));
    if (!window.sessionStorage.getItem("e2e-signed-in")) {
      window.localStorage.setItem("hki-admin-session", t);
      window.sessionStorage.setItem("e2e-signed-in", "1");
    }
  }, token);
}

/** A screen has settled: its heading is shown and no spinner is left in the main area. */
export async function screenSettled(page: Page, heading: string): Promise<void> {
  await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
  await expect(page.locator("main .animate-spin")).toHaveCount(0, { timeout: 15_000 });
}

/** How far the page scrolls sideways (0 when nothing is wider than the viewport). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The widest elements sticking out of the viewport, to name in a failure. */
export function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const r = el.getBoundingClientRect();
      if (r.right > width + 1 && r.width > 0) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 4).join(".")} right=${Math.round(r.right)}`);
      if (out.length >= 8) break;
    }
    return out;
  });
}
