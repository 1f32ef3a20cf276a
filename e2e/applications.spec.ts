import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, type APIRequestContext, test } from "@playwright/test";
import { freePort } from "../src/server/platform/free-port";
import { E2E, openAsAdmin } from "./helpers";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

async function adminApi(request: APIRequestContext) {
  const res = await request.post("/api/auth/sign-in", { data: { email: E2E.adminEmail, password: E2E.adminPassword } });
  expect(res.ok()).toBe(true);
  const token = ((await res.json()) as { token: string }).token;
  const headers = { authorization: `Bearer ${token}` };
  return {
    put: (path: string, data: unknown) => request.put(path, { headers, data }),
    post: (path: string, data: unknown) => request.post(path, { headers, data }),
    delete: (path: string) => request.delete(path, { headers }),
  };
}

/**
 * Who may sell (docs/product.md §20.2): with 'Artist approval' on, an artist the storefront
 * simulator sends applies; it waits in the Vendors Applications tab with its badge, is approved with
 * a reason template, and the simulator's webhook receiver prints the `artist.status_changed`.
 */
test("an application from the storefront simulator is approved from the Applications tab; the storefront hears it", async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  const api = await adminApi(request);
  expect((await api.put("/api/admin/settings", { artist_approval: true })).ok()).toBe(true);
  const key = ((await (await api.post("/api/admin/integrations/api-keys", { name: "Storefront (applications e2e)", scopes: ["events:write"] })).json()) as { key: string }).key;
  const port = await freePort();
  const created = (await (await api.post("/api/admin/integrations/webhooks", { url: `http://127.0.0.1:${port}/webhooks`, events: ["artist.status_changed"] })).json()) as {
    endpoint: { id: string };
    secret: string;
  };
  const seed = String(Date.now() % 1_000_000);
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/storefront-simulate.ts",
      "--url",
      baseURL!,
      "--key",
      key,
      "--apply",
      "--storefront-url",
      E2E.storefrontUrl,
      "--seed",
      seed,
      "--listen",
      String(port),
      "--webhook-secret",
      created.secret,
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    await expect.poll(() => output, { timeout: 30_000 }).toContain(`Applied: the artist "Applicant Studio ${seed}"`);
    expect(output).toContain("-> applied");
    // Its arrival is announced as pending.
    await expect.poll(() => output, { timeout: 30_000 }).toMatch(/webhook artist\.status_changed \S+ decided \S+: \{[^}]*"status":"pending"/);

    await openAsAdmin(page, "/vendors");
    const tab = page.getByRole("tab", { name: /^Applications/ });
    await expect(tab).toContainText(/\d+/);
    await tab.click();
    await expect(page).toHaveURL(/tab=applications/);
    const row = page.getByTestId(`application-row-applicant-studio-${seed}`);
    // The queue is oldest first: page on until the new one shows.
    for (let i = 0; i < 20 && !(await row.isVisible()); i++) {
      const next = page.getByRole("button", { name: "Next" });
      if (!(await next.isEnabled())) break;
      await next.click();
    }
    await expect(row).toContainText("today");
    await row.getByRole("button", { name: `Review Applicant Studio ${seed}` }).click();
    const dialog = page.getByRole("dialog", { name: `Application of Applicant Studio ${seed}` });
    await expect(dialog).toContainText("Woodcut prints of northern coasts");
    await expect(dialog.getByRole("img")).toHaveCount(3);
    await expect(dialog.getByRole("img").first()).toHaveAttribute("src", `${E2E.storefrontUrl}/uploads/applicant-${seed}-1.jpg`);
    // A template's text as the note of the approval.
    const template = dialog.getByRole("list", { name: "Reason templates" }).getByRole("button").first();
    const templateText = (await template.textContent())!;
    await template.click();
    await dialog.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByText(`Applicant Studio ${seed}: approved`).first()).toBeVisible();
    await expect(row).toBeHidden();

    // The data as the storefront receives it: the artist now active, with the note it is told.
    await expect.poll(() => output, { timeout: 30_000 }).toContain(`"artistId":"sim-applicant-${seed}","status":"active","reason":${JSON.stringify(templateText)}`);
  } finally {
    child.kill();
    await api.delete(`/api/admin/integrations/webhooks/${created.endpoint.id}`);
    await api.put("/api/admin/settings", { artist_approval: false });
  }
});
