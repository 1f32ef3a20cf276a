import { expect, test, type Response } from "@playwright/test";
import { apiEndpoints } from "../src/contract/api.ts";
import type { EndpointDefinition } from "../src/contract/endpoint.ts";
import { mainNav, openAsAdmin } from "./helpers";

/** The definition whose method and path template match a request, if any. */
function definitionFor(method: string, pathname: string): EndpointDefinition | undefined {
  return apiEndpoints.find((d) => d.method.toUpperCase() === method && new RegExp(`^${d.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(pathname));
}

test("every answer the screens receive has the shape its endpoint definition declares", async ({ page }) => {
  const checked: string[] = [];
  const problems: string[] = [];
  const pending: Promise<void>[] = [];
  page.on("response", (response: Response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith("/api/")) return;
    const method = response.request().method();
    const definition = definitionFor(method, url.pathname);
    if (!definition) {
      problems.push(`no definition for ${method} ${url.pathname}`);
      return;
    }
    const schema = definition.success?.schema;
    if (!schema || response.status() !== definition.success?.status) return;
    pending.push(
      response.json().then((body: unknown) => {
        const result = schema.safeParse(body);
        checked.push(`${method} ${definition.path}`);
        if (!result.success) problems.push(`${method} ${url.pathname}: ${result.error.message}`);
      }),
    );
  });

  await openAsAdmin(page, "/");
  await expect(page.getByText("Total Artists")).toBeVisible();
  const nav = mainNav(page);
  // Each screen loads its data 100 ms after it opens: wait for that answer before moving on.
  const visit = async (link: string, apiPath: string) => {
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === apiPath);
    await nav.getByRole("link", { name: link }).click();
    await answered;
  };
  // First: an artist's page reads the settings too (its reason templates), after which the Settings
  // screen has nothing new to ask.
  await visit("Settings", "/api/admin/settings");
  const vendorList = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/admin/vendors");
  await nav.getByRole("link", { name: "Vendors" }).click();
  const { vendors } = (await (await vendorList).json()) as { vendors: Array<{ name: string }> };
  await page.getByRole("link", { name: vendors[0]!.name, exact: true }).click();
  await expect(page.getByRole("tab", { name: "Products" })).toBeVisible();
  await page.getByRole("tab", { name: "Products" }).click();
  await page.getByRole("tab", { name: "Sales" }).click();
  await visit("Error Logs", "/api/admin/errors");
  await visit("Analytics", "/api/admin/analytics");
  await visit("Products", "/api/admin/products");
  await visit("System Debug", "/api/debug/admin");
  await expect(page.getByTestId("overall-status")).toBeVisible();
  await page.waitForLoadState("networkidle");
  await Promise.all(pending);

  expect(problems).toEqual([]);
  const distinct = [...new Set(checked)];
  for (const expected of [
    "GET /api/config",
    "POST /api/auth/sign-in",
    "GET /api/admin/dashboard/stats",
    "GET /api/admin/vendors",
    "GET /api/admin/vendors/{id}",
    "GET /api/admin/errors",
    "GET /api/admin/analytics",
    "GET /api/admin/settings",
    "GET /api/debug/admin",
  ]) {
    expect(distinct).toContain(expected);
  }
});

test("the API reference renders in the browser under the panel's content security policy", async ({ page }) => {
  const blocked: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
  });
  await page.goto("/api/docs");
  await expect(page.getByText("HKI Global Admin API").first()).toBeVisible();
  await expect(page.getByText("/api/admin/vendors/{id}").first()).toBeVisible();
  expect(blocked).toEqual([]);
});
