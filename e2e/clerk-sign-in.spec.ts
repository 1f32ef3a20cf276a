import { type Page, type Request, expect, test } from "@playwright/test";
import { CLERK_USERS, type ClerkDeployment, startClerkDeployment } from "./clerk-deployment";
import { presetBetaMarker } from "./helpers";

/**
 * Sign-in through Clerk (issue 24) on a deployment with AUTH_PROVIDER=clerk, fully offline: the
 * fake Clerk answers the Backend API and, routed by Playwright, the Frontend API host of the
 * publishable key; any other outside host is refused, and each test ends by checking nothing asked
 * for one (no script from Clerk's servers, no telemetry, no images from elsewhere).
 */

/** Session tokens live this long, so one expires during the refresh test. */
const TOKEN_TTL_SECONDS = 12;

let deployment: ClerkDeployment;

test.describe.configure({ mode: "serial", timeout: 60_000 });

test.beforeAll(async () => {
  deployment = await startClerkDeployment({ tokenTtlSeconds: TOKEN_TTL_SECONDS });
});

test.afterAll(async () => {
  await deployment?.stop();
});

test.beforeEach(async ({ page, context }) => {
  deployment.refused.length = 0;
  await deployment.routeOffline(context);
  await presetBetaMarker(page);
});

test.afterEach(() => {
  expect(deployment.refused, "requests to hosts other than the panel and the Frontend API").toEqual([]);
});

async function openPanel(page: Page, path = "/"): Promise<void> {
  await page.goto(`${deployment.baseUrl}${path}`);
}

/** Signs in through Clerk's form: the e-mail, 'Continue', then the password step (it names the account). */
async function signInThroughClerk(page: Page, email: string, password: string): Promise<void> {
  // The first wait covers Clerk's lazy 390 kB chunk, which a loaded 2-core CI machine can take over 10 s to run.
  await expect(page.getByText("Administrator access required")).toBeVisible({ timeout: 30_000 });
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByRole("button", { name: "Edit identifier" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  // The password step keeps the product's titles (Clerk's localization).
  await expect(page.getByRole("heading", { name: "HKI Global Admin" })).toBeVisible();
  await expect(page.getByText("Administrator access required")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
}

const activeSessions = (userId: string) => [...deployment.clerk.sessions.values()].filter((s) => s.userId === userId && s.status === "active");

test("the screen is Clerk's form with the two titles, no social button, sign-up link or footer, above 'Are you lost?'", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request: Request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await openPanel(page);
  await expect(page.getByRole("heading", { name: "HKI Global Admin" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Administrator access required")).toBeVisible();
  await expect(page.getByLabel("Email address")).toBeVisible();
  // The instance offers Google and open sign-up, and Clerk renders them: the panel hides them.
  await expect(page.locator(".cl-socialButtonsRoot")).toBeAttached();
  await expect(page.locator(".cl-socialButtonsRoot")).toBeHidden();
  await expect(page.getByRole("button", { name: /google/i })).toBeHidden();
  await expect(page.locator(".cl-dividerRow")).toBeHidden();
  await expect(page.locator(".cl-footer").first()).toBeAttached();
  for (const footer of await page.locator(".cl-footer").all()) await expect(footer).toBeHidden();
  await expect(page.getByRole("link", { name: /sign up/i })).toBeHidden();
  await expect(page.getByText(/secured by/i)).toBeHidden();
  await expect(page.getByText("Are you lost?")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the store" })).toHaveAttribute("href", "http://storefront.e2e.test");
  // Clerk's JS and UI came from the panel itself; the CSP still allows scripts from it alone.
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of scripts) expect(new URL(src).origin).toBe(deployment.baseUrl);
  const csp = (await page.request.get(`${deployment.baseUrl}/`)).headers()["content-security-policy"]!;
  expect(csp).toContain("script-src 'self';");
  expect(csp).toContain(`connect-src 'self' https://${deployment.clerk.frontendApiHost}`);
});

test("an admin by role in Clerk's public metadata signs in through Clerk's form and reaches the dashboard", async ({ page }) => {
  const before = new Set(deployment.clerk.sessions.keys());
  await openPanel(page);
  await signInThroughClerk(page, CLERK_USERS.roleAdmin.email, CLERK_USERS.roleAdmin.password);
  await expect(page.getByText("Platform Management Dashboard")).toBeVisible();
  await expect(page.getByRole("button", { name: `User menu for ${CLERK_USERS.roleAdmin.email}` })).toBeVisible();
  // One new Clerk session, and the panel's calls carry its tokens.
  expect(activeSessions(CLERK_USERS.roleAdmin.id).filter((s) => !before.has(s.id))).toHaveLength(1);
  // A reload keeps the session (Clerk's client cookie on the Frontend API host).
  await page.reload();
  await expect(page.getByText("Platform Management Dashboard")).toBeVisible();
});

test("an admin by the company e-mail domain signs in and keeps the page they opened", async ({ page }) => {
  await openPanel(page, "/settings");
  await signInThroughClerk(page, CLERK_USERS.domainAdmin.email, CLERK_USERS.domainAdmin.password);
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/settings");
});

test("a plain user sees Access Denied, and 'Sign out' there ends their Clerk session", async ({ page }) => {
  await openPanel(page);
  await signInThroughClerk(page, CLERK_USERS.artist.email, CLERK_USERS.artist.password);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(page.getByText("You don't have permission to access the admin panel.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Store" })).toHaveAttribute("href", "http://storefront.e2e.test");
  await expect(page.getByText("Platform Management Dashboard")).toBeHidden();
  expect(activeSessions(CLERK_USERS.artist.id)).toHaveLength(1);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("Administrator access required")).toBeVisible();
  expect(activeSessions(CLERK_USERS.artist.id)).toHaveLength(0);
});

test("a wrong password shows Clerk's error and nothing else changes", async ({ page }) => {
  const apiCalls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/auth/")) apiCalls.push(request.url());
  });
  const sessionsBefore = deployment.clerk.sessions.size;
  await openPanel(page);
  await signInThroughClerk(page, CLERK_USERS.roleAdmin.email, "not-the-password");
  // Clerk's own words, under the field (Clerk repeats them for screen readers).
  await expect(page.getByText("Password is incorrect. Try again, or use another method.").first()).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
  await expect(page.getByText("Administrator access required")).toBeVisible();
  await expect(page.getByText("Platform Management Dashboard")).toBeHidden();
  await expect(page.getByText("Access Denied")).toBeHidden();
  expect(deployment.clerk.sessions.size).toBe(sessionsBefore);
  // Nobody was asked about a session that does not exist.
  expect(apiCalls).toEqual([]);
});

test("a session token that expires mid-session is refreshed without a visible sign-out", async ({ page }) => {
  test.setTimeout(90_000);
  const seen: Array<{ at: number; token: string; path: string }> = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    const auth = request.headers().authorization;
    if (url.pathname.startsWith("/api/") && auth) seen.push({ at: Date.now(), token: auth.slice("Bearer ".length), path: url.pathname });
  });
  const failures: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/api/") && response.status() === 401) failures.push(response.url());
  });
  await openPanel(page);
  await signInThroughClerk(page, CLERK_USERS.roleAdmin.email, CLERK_USERS.roleAdmin.password);
  await expect(page.getByText("Platform Management Dashboard")).toBeVisible();
  const first = seen[0]!.token;
  const { exp: firstExp, sid } = JSON.parse(Buffer.from(first.split(".")[1]!, "base64url").toString()) as { exp: number; sid: string };

  // Past the first token's expiry (and the server's 5 s leeway), then open screens that call the API.
  await page.waitForTimeout(Math.max(0, firstExp * 1000 + 6_000 - Date.now()));
  // Each screen's data is waited for, not just its heading: the call goes out only after Clerk has fetched the
  // fresh token, which can take longer than rendering the heading on a loaded machine.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Platform Fee Percentage (%)", { exact: true })).toBeVisible({ timeout: 20_000 });
  const vendorsAnswered = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/admin/vendors", { timeout: 20_000 });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Vendors" }).click();
  await expect(page.getByRole("heading", { name: "Vendors", level: 1 })).toBeVisible();
  expect((await vendorsAnswered).status()).toBe(200);

  const late = seen.filter((s) => s.at > firstExp * 1000);
  expect(late.length).toBeGreaterThan(0);
  for (const s of late) {
    expect(s.token, s.path).not.toBe(first);
    const { exp } = JSON.parse(Buffer.from(s.token.split(".")[1]!, "base64url").toString()) as { exp: number };
    expect(exp * 1000, s.path).toBeGreaterThan(s.at);
  }
  expect(failures).toEqual([]);
  await expect(page.getByText("Administrator access required")).toBeHidden();
  // The same Clerk session throughout: new tokens for it, no new sign-in.
  expect(deployment.clerk.sessions.get(sid)?.status).toBe("active");
  expect(deployment.clerk.tokens.filter((t) => t.sessionId === sid).length).toBeGreaterThan(1);
  expect(new Set(late.map((s) => JSON.parse(Buffer.from(s.token.split(".")[1]!, "base64url").toString()).sid))).toEqual(new Set([sid]));
});

test("sign-out goes through Clerk, returns to '/', and ends the session at Clerk", async ({ page }) => {
  const before = new Set(deployment.clerk.sessions.keys());
  await openPanel(page, "/settings");
  await signInThroughClerk(page, CLERK_USERS.domainAdmin.email, CLERK_USERS.domainAdmin.password);
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  const [session, ...others] = activeSessions(CLERK_USERS.domainAdmin.id).filter((s) => !before.has(s.id));
  expect(session).toBeTruthy();
  expect(others).toEqual([]);

  await page.getByRole("button", { name: `User menu for ${CLERK_USERS.domainAdmin.email}` }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByText("Administrator access required")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
  expect(deployment.clerk.sessions.get(session!.id)?.status).toBe("removed");
  expect(deployment.clerk.requests).toContainEqual({ api: "frontend", method: "DELETE", path: "/v1/client/sessions" });
  // A reload stays signed out: the session is gone at Clerk, not only in this page.
  await page.reload();
  await expect(page.getByText("Administrator access required")).toBeVisible();
  await expect(page.getByText("Platform Management Dashboard")).toBeHidden();
});
