import { defineConfig, devices } from "@playwright/test";

/**
 * Browser tests against the built app served by the real server (as `npm start` serves it).
 * e2e/global-setup.ts builds dist/web when missing, starts the server on a free port with a fresh
 * SQLite database, creates a non-admin user, and hands the URL over through E2E_BASE_URL.
 * The system Chromium is used; a browser is never downloaded.
 */
// Playwright empties its output folder when a run starts, so runs sharing one working tree would delete each
// other's traces mid-run. Each run gets its own folder; the id is set once here in the runner process and
// inherited by the workers, which load this file again.
process.env.E2E_RUN_ID ??= `${Date.now()}-${process.pid}`;

export const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";

const STOREFRONT_WRITERS = /integrations\.spec\.ts$/;
/**
 * Turn a review setting on for their run: 'Artist Approval' (every artist arriving meanwhile would
 * wait as an applicant) and 'Review new listings' (every listing arriving meanwhile would wait).
 */
const APPROVAL_ON = /(applications|listing-review)\.spec\.ts$/;
const browser = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: CHROME_PATH,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  },
};

export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  outputDir: `test-results/e2e-artifacts/${process.env.E2E_RUN_ID}`,
  use: {
    // Set by global-setup before the workers start; workers inherit it.
    baseURL: process.env.E2E_BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    // The storefront's door writes artists, products and orders that move every vendor list's
    // order and counts; its specs run once the others are done, so theirs compare stable lists.
    { name: "chromium", testIgnore: [STOREFRONT_WRITERS, APPROVAL_ON], use: browser },
    { name: "storefront-writes", testMatch: STOREFRONT_WRITERS, dependencies: ["chromium"], use: browser },
    // After the other storefront writers: with approval on, their new artists would arrive pending.
    { name: "approval-on", testMatch: APPROVAL_ON, dependencies: ["storefront-writes"], use: browser },
  ],
});
