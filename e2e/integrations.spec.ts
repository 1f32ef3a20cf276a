import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { mainNav, openAsAdmin } from "./helpers";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Runs `npm run storefront:simulate` (its script, with tsx) against the e2e server; answers what it printed. */
function simulate(baseUrl: string, key: string, seconds: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/storefront-simulate.ts", "--url", baseUrl, "--key", key, "--rate", "20", "--duration", String(seconds), "--seed", "4242"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

test.describe("integrations", () => {
  test("an admin creates an API key on the Integrations screen; the storefront simulator's artist, product and order then show on the screens", async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    await openAsAdmin(page, "/");
    await mainNav(page).getByRole("link", { name: "Integrations" }).click();
    await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
    // The demo's key is listed (its secret was never kept).
    await expect(page.getByTestId("api-key-row-Storefront (demo)")).toBeVisible();

    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await dialog.getByLabel("Name").fill("Storefront (e2e)");
    await expect(dialog.getByRole("checkbox", { name: /events:write/ })).toBeChecked();
    await dialog.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByRole("dialog", { name: "API key created" });
    await expect(shown.getByText("You won't see this key again", { exact: false })).toBeVisible();
    const key = await shown.getByTestId("new-api-key").inputValue();
    expect(key).toMatch(/^hki_sk_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("api-key-row-Storefront (e2e)")).toBeVisible();
    await expect(page.getByTestId("api-key-row-Storefront (e2e)").getByText("Never")).toBeVisible();

    const { code, output } = await simulate(baseURL!, key, 4);
    expect(code, output).toBe(0);
    expect(output).toMatch(/applied \d+/);
    const example = /For example: the order (\S+) of "([^"]+)" \((\S+)\) by the artist "([^"]+)" \((\S+), \/(\S+)\)/.exec(output);
    expect(example, output).not.toBeNull();
    const [, , productName, , artistName, , slug] = example!;

    // The key's use shows on the screen.
    await page.reload();
    await expect(page.getByTestId("api-key-row-Storefront (e2e)").getByText("Never")).toHaveCount(0);

    // The new artist on Vendors, its sale on its Sales tab, the product on Products.
    await mainNav(page).getByRole("link", { name: "Vendors" }).click();
    await page.getByLabel("Search vendors").fill(slug!);
    const row = page.getByTestId(`vendor-row-${slug}`);
    await expect(row).toBeVisible();
    // The search has settled on the one vendor before its link is followed.
    await expect(page.getByText("1 vendor · page 1 of 1")).toBeVisible();
    await row.getByRole("link", { name: artistName!, exact: true }).click();
    await expect(page.getByRole("heading", { name: artistName!, level: 1 })).toBeVisible();
    await page.getByRole("tab", { name: "Sales" }).click();
    await expect(page.getByText(productName!, { exact: true }).first()).toBeVisible();

    await mainNav(page).getByRole("link", { name: "Products" }).click();
    await page.getByLabel("Search products").fill(productName!);
    await expect(page.getByRole("cell", { name: productName! }).first()).toBeVisible();
  });
});
