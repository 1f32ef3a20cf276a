import { readFileSync } from "node:fs";
import { expect, type APIRequestContext, type Download, type Page, test } from "@playwright/test";
import type { AuditLogResponse } from "../src/contract/audit-log";
import type { AdminUsersResponse } from "../src/contract/admin-users";
import type { AnalyticsResponse } from "../src/contract/analytics";
import type { ErrorListResponse } from "../src/contract/error-logs";
import type { AdminVendorsResponse } from "../src/contract/vendors";
import { E2E, openAsAdmin } from "./helpers";

/**
 * Issue 23, "the screens people live in": sorted lists across pages (vendors, error logs, staff),
 * bulk actions that change all or nothing (vendors enable/disable, error logs archive), and CSV
 * files downloaded and parsed (vendors, error logs, the analytics daily breakdown).
 */

const FORMULA = "=cmd|' /C calc'!A0";

async function tokenOf(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post("/api/auth/sign-in", { data: { email, password } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

function apiOf(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: async <T>(path: string): Promise<T> => {
      const res = await request.get(path, { headers });
      expect(res.status(), path).toBe(200);
      return (await res.json()) as T;
    },
    post: (path: string, data: unknown) => request.post(path, { headers, data }),
  };
}

/** Every row of a cursor-paged list, following nextCursor (at most `max` pages). */
async function walk<T, R extends { nextCursor: string | null }>(get: (path: string) => Promise<R>, path: string, rowsOf: (r: R) => T[], max = 50): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < max; i++) {
    const page: R = await get(`${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    rows.push(...rowsOf(page));
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return rows;
}

/** RFC 4180 as a spreadsheet reads it: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const body = text.replace(/^\uFEFF/, "");
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endCell();
    else if (c === "\r" && body[i + 1] === "\n") {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += c;
  }
  if (cell !== "" || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}

async function downloadCsv(page: Page, click: () => Promise<void>, stem: string): Promise<string[][]> {
  const download: Promise<Download> = page.waitForEvent("download");
  await click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^${stem}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  return parseCsv(readFileSync((await file.path())!, "utf8"));
}

/**
 * The items of `a` that are also in `b`, in `a`'s order. Other test files add and delete artists
 * while this one walks the pages, so two walks agree on the order of the artists both saw.
 */
const inBoth = (a: string[], b: string[]) => a.filter((x) => b.includes(x));

const firstRow = (page: Page) => page.locator('[data-testid^="vendor-row-"]').first();
const dollars = (text: string) => Number(text.replace(/[$,]/g, ""));

/** The slugs and one column's text of the vendor rows on screen. */
async function vendorRowsOnScreen(page: Page, column: number): Promise<Array<{ slug: string; value: string }>> {
  const rows = page.locator('[data-testid^="vendor-row-"]');
  const out: Array<{ slug: string; value: string }> = [];
  for (const row of await rows.all()) {
    const slug = ((await row.getAttribute("data-testid")) ?? "").replace("vendor-row-", "");
    out.push({ slug, value: (await row.locator("td").nth(column).textContent()) ?? "" });
  }
  return out;
}

test.describe("lists: sort, bulk actions, CSV (issue 23)", () => {
  test("the vendor list sorts by revenue and by name across pages, in the URL; the API walks the same order", async ({ page, request }) => {
    const api = apiOf(request, await tokenOf(request, E2E.adminEmail, E2E.adminPassword));
    await openAsAdmin(page, "/vendors");
    await expect(page.locator('[data-testid^="vendor-row-"]').first()).toBeVisible();

    await page.getByRole("button", { name: "Revenue", exact: true }).click();
    await page.getByRole("button", { name: "Revenue", exact: true }).click();
    await expect(page).toHaveURL(/sort=-revenue/);
    await expect(page.getByRole("columnheader", { name: "Revenue" })).toHaveAttribute("aria-sort", "descending");
    // Columns: the row's checkbox, Vendor, Owner, Email, Store URL, Products, Revenue, Joined, Actions.
    const shown: Array<{ slug: string; value: string }> = [];
    for (let p = 1; p <= 3; p++) {
      await expect(page.getByText(new RegExp(`· page ${p} of`))).toBeVisible();
      // The rows of the page before stay on screen until the new page arrives.
      if (shown.length > 0) await expect(firstRow(page)).not.toHaveAttribute("data-testid", `vendor-row-${shown.at(-20)!.slug}`);
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      shown.push(...(await vendorRowsOnScreen(page, 6)));
      if (p < 3) await page.getByRole("button", { name: "Next" }).click();
    }
    expect(shown).toHaveLength(60);
    expect(new Set(shown.map((r) => r.slug)).size).toBe(60);
    const revenues = shown.map((r) => dollars(r.value));
    for (let i = 1; i < revenues.length; i++) expect(revenues[i]!).toBeLessThanOrEqual(revenues[i - 1]!);
    const byApi = await walk(
      (p) => api.get<AdminVendorsResponse>(p),
      "/api/admin/vendors?sort=-revenue&limit=20",
      (r) => r.vendors,
      3,
    );
    const slugsShown = shown.map((r) => r.slug);
    const slugsByApi = byApi.map((v) => v.slug);
    expect(inBoth(slugsShown, slugsByApi).length).toBeGreaterThanOrEqual(50);
    expect(inBoth(slugsShown, slugsByApi)).toEqual(inBoth(slugsByApi, slugsShown));
    // Reload keeps the order and the page (the cursor stack is in the URL).
    await page.reload();
    await expect(page.getByText(/· page 3 of/)).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const afterReload = (await vendorRowsOnScreen(page, 6)).map((r) => r.slug);
    expect(inBoth(afterReload, slugsShown.slice(40)).length).toBeGreaterThanOrEqual(15);
    expect(inBoth(afterReload, slugsShown.slice(40))).toEqual(inBoth(slugsShown.slice(40), afterReload));

    await page.getByRole("button", { name: "Vendor", exact: true }).click();
    await expect(page).toHaveURL(/sort=name/);
    await expect(page).not.toHaveURL(/cursor=/);
    const names: string[] = [];
    for (let p = 1; p <= 2; p++) {
      await expect(page.getByText(new RegExp(`· page ${p} of`))).toBeVisible();
      if (p === 1) await expect(firstRow(page)).not.toHaveAttribute("data-testid", `vendor-row-${shown[40]!.slug}`);
      else await expect(firstRow(page).locator("td:nth-child(2) a")).not.toHaveText(names[0]!);
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      names.push(...(await page.locator('[data-testid^="vendor-row-"] td:nth-child(2) a').allTextContents()));
      if (p < 2) await page.getByRole("button", { name: "Next" }).click();
    }
    const namesByApi = (
      await walk(
        (p) => api.get<AdminVendorsResponse>(p),
        "/api/admin/vendors?sort=name&limit=20",
        (r) => r.vendors,
        2,
      )
    ).map((v) => v.name);
    expect(inBoth(names, namesByApi).length).toBeGreaterThanOrEqual(35);
    expect(inBoth(names, namesByApi)).toEqual(inBoth(namesByApi, names));
    // SQLite compares names by their bytes: JavaScript's order of the same (BMP) texts.
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  test("error logs oldest first and staff by name and last sign-in, across pages", async ({ page, request }) => {
    const api = apiOf(request, await tokenOf(request, E2E.adminEmail, E2E.adminPassword));
    const oldest = await walk(
      (p) => api.get<ErrorListResponse>(p),
      "/api/admin/errors?sort=oldest&limit=20",
      (r) => r.errors,
      3,
    );
    expect(oldest.length).toBeGreaterThan(20);
    for (let i = 1; i < oldest.length; i++) expect(oldest[i]!.created_at >= oldest[i - 1]!.created_at).toBe(true);
    const newest = await api.get<ErrorListResponse>("/api/admin/errors?limit=1");
    expect(newest.errors[0]!.created_at >= oldest.at(-1)!.created_at).toBe(true);

    await openAsAdmin(page, "/errors");
    await expect(page.getByTestId("error-row").first()).toBeVisible();
    await page.getByLabel("Order").selectOption("oldest");
    await expect(page).toHaveURL(/sort=oldest/);
    await expect(page.getByTestId("error-row").first().getByRole("button", { name: oldest[0]!.message, exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByTestId("error-row").first().getByRole("button", { name: oldest[20]!.message, exact: true })).toBeVisible();

    const byName = await walk(
      (p) => api.get<AdminUsersResponse>(p),
      "/api/admin/users?sort=name&limit=1",
      (r) => r.users,
    );
    expect(byName.length).toBeGreaterThan(1);
    const names = byName.map((u) => u.name ?? "");
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const bySignIn = await walk(
      (p) => api.get<AdminUsersResponse>(p),
      "/api/admin/users?sort=-lastSignIn&limit=1",
      (r) => r.users,
    );
    const times = bySignIn.map((u) => u.lastSignInAt ?? "");
    expect(times).toEqual([...times].sort().reverse());
    expect(new Set(bySignIn.map((u) => u.id)).size).toBe(byName.length);

    await page.goto("/admin-users");
    await expect(page.getByRole("heading", { name: "Admin Users", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Last sign-in", exact: true }).click();
    await page.getByRole("button", { name: "Last sign-in", exact: true }).click();
    await expect(page).toHaveURL(/sort=-lastSignIn/);
    await expect(page.locator('[data-testid^="staff-row-"]').first()).toHaveAttribute("data-testid", `staff-row-${bySignIn[0]!.email}`);
  });

  test("vendors enable and disable in bulk: one confirmation naming how many; one unknown id changes nothing", async ({ page, request }) => {
    const api = apiOf(request, await tokenOf(request, E2E.adminEmail, E2E.adminPassword));
    const before = await api.get<AdminVendorsResponse>("/api/admin/vendors?status=active&sort=name&limit=20");
    const [a, b] = before.vendors.filter((v) => !v.isInternal);
    expect(a && b).toBeTruthy();
    const statusOf = async (slug: string) => (await api.get<AdminVendorsResponse>(`/api/admin/vendors?search=${encodeURIComponent(slug)}`)).vendors.find((v) => v.slug === slug)!.isActive;

    // Through the API: an unknown id among real ones refuses the request; nothing changed.
    const refused = await api.post("/api/admin/vendors/bulk-status", { ids: [a!.id, b!.id, "no-such-vendor"], isActive: false, reason: "Orders not shipped" });
    expect(refused.status()).toBe(404);
    expect(await refused.text()).toContain("no-such-vendor");
    expect(await statusOf(a!.slug)).toBe(true);
    expect(await statusOf(b!.slug)).toBe(true);
    expect((await api.get<AdminVendorsResponse>("/api/admin/vendors")).counts).toEqual(before.counts);

    await openAsAdmin(page, "/vendors?status=active&sort=name");
    await page.getByRole("checkbox", { name: `Select ${a!.name}`, exact: true }).check();
    // Keyboard: focus the next box and press Space.
    await page.getByRole("checkbox", { name: `Select ${b!.name}`, exact: true }).focus();
    await page.keyboard.press("Space");
    await expect(page.getByText("2 vendors selected", { exact: true })).toBeVisible();

    // The same through the screen, with an id the server does not know slipped into the request.
    await page.route("**/api/admin/vendors/bulk-status", async (route) => {
      const body = JSON.parse(route.request().postData() ?? "{}") as { ids: string[] };
      await route.continue({ postData: JSON.stringify({ ...body, ids: [...body.ids, "no-such-vendor"] }) });
    });
    await page.getByRole("button", { name: "Disable selected" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByRole("heading", { name: "Disable 2 vendors" })).toBeVisible();
    await dialog.getByLabel("Reason (the artist is told it)").fill("Season closed");
    await dialog.getByRole("button", { name: "Disable 2 vendors" }).click();
    await expect(page.getByText(/^Failed to disable 2 vendors: .*no-such-vendor/)).toBeVisible();
    expect(await statusOf(a!.slug)).toBe(true);
    expect(await statusOf(b!.slug)).toBe(true);
    await page.unroute("**/api/admin/vendors/bulk-status");

    // Now for real: both disabled in one call, counted, audited once.
    await page.getByRole("button", { name: "Disable selected" }).click();
    await page.getByRole("alertdialog").getByLabel("Reason (the artist is told it)").fill("Season closed");
    await page.getByRole("alertdialog").getByRole("button", { name: "Disable 2 vendors" }).click();
    await expect(page.getByText("2 vendors disabled", { exact: true })).toBeVisible();
    expect(await statusOf(a!.slug)).toBe(false);
    expect(await statusOf(b!.slug)).toBe(false);
    const after = (await api.get<AdminVendorsResponse>("/api/admin/vendors")).counts;
    expect(after).toEqual({ ...before.counts, active: before.counts.active - 2, inactive: before.counts.inactive + 2 });
    const audit = await api.get<AuditLogResponse>("/api/admin/audit-log?limit=5&action=vendor.bulk_disable");
    expect(audit.entries[0]!.details).toMatchObject({ vendorIds: [a!.id, b!.id], unchanged: 0 });

    // And back, from the inactive list.
    await page.goto("/vendors?status=inactive&sort=name");
    await page.getByRole("checkbox", { name: `Select ${a!.name}`, exact: true }).check();
    await page.getByRole("checkbox", { name: `Select ${b!.name}`, exact: true }).check();
    await page.getByRole("button", { name: "Enable selected" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Enable 2 vendors" }).click();
    await expect(page.getByText("2 vendors enabled", { exact: true })).toBeVisible();
    expect((await api.get<AdminVendorsResponse>("/api/admin/vendors")).counts).toEqual(before.counts);
  });

  test("error logs archive in bulk: one confirmation naming how many; one unknown id archives nothing", async ({ page, request }) => {
    const api = apiOf(request, await tokenOf(request, E2E.adminEmail, E2E.adminPassword));
    const first = await api.get<ErrorListResponse>("/api/admin/errors?limit=2");
    const [e1, e2] = first.errors;
    expect(e1 && e2).toBeTruthy();
    const refused = await api.post("/api/admin/errors/archive", { ids: [e1!.id, "no-such-entry"] });
    expect(refused.status()).toBe(404);
    expect((await api.get<ErrorListResponse>("/api/admin/errors?limit=2")).errors.map((e) => e.id)).toEqual([e1!.id, e2!.id]);

    await openAsAdmin(page, "/errors");
    const rows = page.getByTestId("error-row");
    await expect(rows.first()).toBeVisible();
    await rows.nth(0).getByRole("checkbox").check();
    await rows.nth(1).getByRole("checkbox").check();
    await expect(page.getByText("2 errors selected", { exact: true })).toBeVisible();
    await page.route("**/api/admin/errors/archive", async (route) => {
      const body = JSON.parse(route.request().postData() ?? "{}") as { ids: string[] };
      await route.continue({ postData: JSON.stringify({ ids: [...body.ids, "no-such-entry"] }) });
    });
    await page.getByRole("button", { name: "Archive selected" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Archive 2 errors" }).click();
    await expect(page.getByText(/^Failed to archive errors: .*no-such-entry/)).toBeVisible();
    const unchanged = await api.get<ErrorListResponse>("/api/admin/errors?limit=2");
    expect(unchanged.errors.map((e) => e.id)).toEqual([e1!.id, e2!.id]);
    expect(unchanged.counts).toEqual(first.counts);
    await page.unroute("**/api/admin/errors/archive");

    await page.getByRole("button", { name: "Archive selected" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Archive 2 errors" }).click();
    await expect(page.getByText("Archived 2 errors", { exact: true })).toBeVisible();
    const now = await api.get<ErrorListResponse>("/api/admin/errors?limit=20");
    expect(now.errors.map((e) => e.id)).not.toContain(e1!.id);
    expect(now.errors.map((e) => e.id)).not.toContain(e2!.id);
    const archived = await api.get<ErrorListResponse>("/api/admin/errors?archived=true&limit=1");
    expect(archived.counts.all).toBeGreaterThanOrEqual(2);
  });

  test("CSV: vendors with the search and status, error logs with the view and level (a =cmd cell neutralised), the whole analytics period", async ({ page, request }) => {
    const api = apiOf(request, await tokenOf(request, E2E.adminEmail, E2E.adminPassword));
    // A refused request whose User-Agent a spreadsheet would run: the error log keeps it as text.
    const userToken = await tokenOf(request, E2E.userEmail, E2E.userPassword);
    const denied = await request.get("/api/admin/vendors", { headers: { authorization: `Bearer ${userToken}`, "user-agent": FORMULA } });
    expect(denied.status()).toBe(403);

    // Vendors: a surname of an active vendor as the search, status Active.
    const someone = (await api.get<AdminVendorsResponse>("/api/admin/vendors?status=active&limit=1")).vendors[0]!;
    const term = someone.owner.split(" ").pop()!;
    const matching = await api.get<AdminVendorsResponse>(`/api/admin/vendors?status=active&limit=100&search=${encodeURIComponent(term)}`);
    expect(matching.total).toBeLessThanOrEqual(100);
    await openAsAdmin(page, `/vendors?status=active&search=${encodeURIComponent(term)}`);
    await expect(page.getByTestId(`vendor-row-${someone.slug}`)).toBeVisible();
    const vendorsCsv = await downloadCsv(page, () => page.getByRole("button", { name: "Export CSV" }).click(), "vendors");
    expect(vendorsCsv[0]).toEqual(["Vendor", "Vendor id", "Owner", "Email", "Store slug", "Status", "Internal", "Listed products", "Revenue (USD)", "Joined"]);
    expect(
      vendorsCsv
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(matching.vendors.map((v) => v.id).sort());
    expect(vendorsCsv.slice(1).every((r) => r[5] === "active")).toBe(true);

    // Error logs: the active view, warnings only (the refused request is one).
    await page.goto("/errors?level=warning");
    await expect(page.getByTestId("error-row").first()).toBeVisible();
    const warnings = await api.get<ErrorListResponse>("/api/admin/errors?level=warning&limit=1");
    const errorsCsv = await downloadCsv(page, () => page.getByRole("button", { name: "Export CSV" }).click(), "error-logs");
    expect(errorsCsv[0]).toEqual(["Time", "Level", "Message", "Method", "Endpoint", "Status", "User", "IP address", "User agent", "Archived at", "Id"]);
    expect(errorsCsv.length - 1).toBe(warnings.counts.warning);
    expect(errorsCsv.slice(1).every((r) => r[1] === "warning" && r[9] === "")).toBe(true);
    const neutralised = errorsCsv.find((r) => r[8]?.includes("cmd|"));
    expect(neutralised?.[8]).toBe(`'${FORMULA}`);
    expect(errorsCsv.some((r) => r.some((c) => c.startsWith("=")))).toBe(false);

    // Analytics: every day of the period, not just the ten rows the card shows.
    const analytics = await api.get<AnalyticsResponse>("/api/admin/analytics?days=30");
    await page.goto("/analytics?days=30");
    const breakdown = page.getByRole("table", { name: "Daily Breakdown" });
    await expect(breakdown).toBeVisible();
    await expect(breakdown.locator("tbody tr")).toHaveCount(10);
    const dailyCsv = await downloadCsv(page, () => page.getByRole("button", { name: "Export CSV" }).click(), "analytics-daily");
    expect(dailyCsv[0]).toEqual(["Date", "Revenue (USD)", "Orders", "Fees (USD)"]);
    expect(dailyCsv.slice(1)).toEqual(analytics.metrics.map((m) => [m.date, m.total_revenue.toFixed(2), String(m.total_orders), m.total_fees.toFixed(2)]));
    expect(dailyCsv).toHaveLength(31);
  });
});
