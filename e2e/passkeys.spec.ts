import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { serverCommand } from "../src/server/testing/server-command";
import { freePort, waitForHealth } from "./global-setup";
import { E2E, presetBetaMarker, signIn } from "./helpers";

/**
 * Passkeys (docs/product.md "Two-step sign-in") in Chromium, with the DevTools protocol's virtual
 * authenticator (WebAuthn domain: CTAP2, internal, resident keys, user verification): the admin
 * adds a passkey from the user menu, signs out, and signs in with the passkey alone.
 *
 * WebAuthn needs a valid RP ID, and an IP address is not one: this spec starts its own server
 * (the production bundle, as global-setup.ts does) whose PUBLIC_URL is http://localhost:<port>,
 * and opens the panel at that address.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
let server: ChildProcess | undefined;
let dir: string;
let panel: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hki-e2e-passkeys-"));
  const port = await freePort((Number(process.env.E2E_PORT) || 3100) + 20);
  panel = `http://localhost:${port}`;
  const logFile = join(dir, "server.log");
  const [command, ...args] = serverCommand("build");
  server = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: panel,
      DATABASE_URL: `sqlite:${join(dir, "passkeys.sqlite")}`,
      SEED_DEMO: "false",
      BETA_PASSWORD: E2E.betaPassword,
      ADMIN_EMAIL: E2E.adminEmail,
      ADMIN_PASSWORD: E2E.adminPassword,
      STOREFRONT_URL: E2E.storefrontUrl,
      AUTH_PROVIDER: "local",
      MAIL_DIR: join(dir, "mail"),
    },
    stdio: ["ignore", openSync(logFile, "a"), openSync(logFile, "a")],
  });
  await waitForHealth(`http://127.0.0.1:${port}`, server, logFile);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 6000))]);
    if (server.exitCode === null) server.kill("SIGKILL");
  }
  rmSync(dir, { recursive: true, force: true });
});

test("add a passkey from the user menu, sign out, sign in with the passkey alone", async ({ page }) => {
  test.setTimeout(90_000);
  // A platform authenticator that verifies its user (as Touch ID or Windows Hello would) and keeps resident keys.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  await presetBetaMarker(page);
  await page.goto(panel);
  await signIn(page, E2E.adminEmail, E2E.adminPassword);
  await expect(page.getByText("Platform Management Dashboard")).toBeVisible();

  await page.getByRole("button", { name: `User menu for ${E2E.adminEmail}` }).click();
  await page.getByRole("menuitem", { name: "Passkeys" }).click();
  const dialog = page.getByRole("dialog", { name: "Passkeys" });
  await expect(dialog.getByText("You have no passkeys yet.")).toBeVisible();
  await dialog.getByLabel("Name of the new passkey").fill("E2E laptop");
  await dialog.getByRole("button", { name: "Add a passkey" }).click();
  const row = dialog.getByRole("list", { name: "Your passkeys" }).getByRole("listitem", { name: "E2E laptop" });
  await expect(row).toContainText("Never used");
  // The authenticator holds it as a resident (discoverable) credential for this site.
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: /User menu for/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByText("Administrator access required")).toBeVisible();

  // No e-mail, no password: the passkey is both factors.
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByText("Platform Management Dashboard")).toBeVisible();
  const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);

  // The list says when it was last used.
  await page.getByRole("button", { name: /User menu for/ }).click();
  await page.getByRole("menuitem", { name: "Passkeys" }).click();
  await expect(page.getByRole("dialog", { name: "Passkeys" }).getByRole("listitem", { name: "E2E laptop" })).toContainText("Last used");
});
