import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createExportResponseSchema } from "../../../contract/exports.ts";
import { placeOrder } from "../../domain/ledger/orders.ts";
import { createProduct } from "../../domain/ledger/products.ts";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { newId } from "../../platform/db/ids.ts";
import { type TestContext, createTestContext, testDatabaseKinds } from "../../testing/test-app.ts";

/**
 * The CSV exports of issue 23 through the one export mechanism: the vendor list (search and status),
 * the error log (view and level) and the analytics daily breakdown (the whole period). Files are
 * parsed as a spreadsheet would; a cell a spreadsheet would run as a formula is neutralised.
 */

const NOW = "2026-11-22T12:00:00.000Z";
const FORMULA = "=cmd|' /C calc'!A0";

/** RFC 4180: quoted cells, doubled quotes, CRLF rows. */
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

describe.each(testDatabaseKinds)("list CSV exports (%s)", (kind) => {
  let ctx: TestContext;
  let admin: { token: string };
  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    admin = await ctx.createUser({ email: "exports@hki.global" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function download(kind: string, filters: Record<string, string>): Promise<string[][]> {
    const created = await ctx.request("/api/admin/exports", { method: "POST", token: admin.token, json: { kind, filters } });
    expect(created.status, await created.clone().text()).toBe(201);
    const res = await ctx.request(new URL(createExportResponseSchema.parse(await created.json()).url).pathname);
    expect(res.status).toBe(200);
    return parseCsv(await res.text());
  }

  it("vendors: the search and status on screen, newest joined first, with products and revenue", async () => {
    const { db } = ctx.database;
    const make = (name: string, slug: string, isActive: boolean, day: number) =>
      createVendor(db, { name, ownerName: "Owner", email: `${slug}@shop.example`, slug, isActive, joinedAt: `2026-03-${String(day).padStart(2, "0")}T00:00:00.000Z` }, ctx.clock);
    const evil = await make(FORMULA, "evil-store", true, 5);
    await make("Quiet Studio", "quiet-studio", false, 6);
    const kiln = await make("Kiln Works", "kiln-works", true, 7);
    await createVendor(db, { name: "Elsewhere", ownerName: "Owner", email: "x@other.example", slug: "elsewhere", joinedAt: "2026-03-08T00:00:00.000Z" }, ctx.clock);
    const product = await createProduct(db, { vendorId: kiln.id, name: "Bowl", priceCents: 4200 }, ctx.clock);
    await placeOrder(db, { vendorId: kiln.id, productId: product.id, quantity: 1, feeRateBasisPoints: 150 }, ctx.clock);

    const csv = await download("vendors", { search: "shop.example", status: "active" });
    expect(csv[0]).toEqual(["Vendor", "Vendor id", "Owner", "Email", "Store slug", "Status", "Internal", "Listed products", "Revenue (USD)", "Joined"]);
    expect(csv.slice(1)).toEqual([
      ["Kiln Works", kiln.id, "Owner", "kiln-works@shop.example", "kiln-works", "active", "no", "1", "42.00", "2026-03-07T00:00:00.000Z"],
      [`'${FORMULA}`, evil.id, "Owner", "evil-store@shop.example", "evil-store", "active", "no", "0", "0.00", "2026-03-05T00:00:00.000Z"],
    ]);
    // Without filters: every vendor.
    expect((await download("vendors", {})).length - 1).toBe(4);
    // A filter the list refuses is refused here too.
    const bad = await ctx.request("/api/admin/exports", { method: "POST", token: admin.token, json: { kind: "vendors", filters: { status: "asleep" } } });
    expect(bad.status).toBe(400);
  });

  it("error logs: the view and level on screen, newest first", async () => {
    const entries = Array.from({ length: 7 }, (_, i) => ({
      id: newId(),
      level: i % 2 === 0 ? ("error" as const) : ("info" as const),
      message: i === 0 ? FORMULA : `failure ${i}`,
      endpoint: "/api/x",
      method: "POST",
      status_code: 500,
      user_email: null,
      ip_address: "10.0.0.1",
      user_agent: i === 2 ? `+${FORMULA}` : null,
      stack_trace: null,
      context: null,
      fingerprint: null,
      archived: i === 6 ? 1 : 0,
      archived_at: i === 6 ? NOW : null,
      created_at: new Date(Date.parse(NOW) - i * 60_000).toISOString(),
    }));
    await ctx.database.db.insertInto("error_logs").values(entries).execute();
    const csv = await download("error-logs", { level: "error", archived: "false" });
    expect(csv[0]).toEqual(["Time", "Level", "Message", "Method", "Endpoint", "Status", "User", "IP address", "User agent", "Archived at", "Id"]);
    expect(csv.slice(1).map((r) => r[10])).toEqual([entries[0]!.id, entries[2]!.id, entries[4]!.id]);
    expect(csv[1]![2]).toBe(`'${FORMULA}`);
    expect(csv[2]![8]).toBe(`'+${FORMULA}`);
    const archived = await download("error-logs", { archived: "true" });
    expect(archived.slice(1).map((r) => r[10])).toEqual([entries[6]!.id]);
  });

  it("analytics: every day of the period on screen, not just the rows shown", async () => {
    const vendor = await createVendor(ctx.database.db, { name: "Kiln", ownerName: "Owner", email: "k@shop.example", slug: "kiln" }, ctx.clock);
    const product = await createProduct(ctx.database.db, { vendorId: vendor.id, name: "Bowl", priceCents: 1000 }, ctx.clock);
    await placeOrder(ctx.database.db, { vendorId: vendor.id, productId: product.id, quantity: 2, feeRateBasisPoints: 150, createdAt: "2026-11-20T09:00:00.000Z" }, ctx.clock);
    const csv = await download("analytics-daily", { days: "30", to: "2026-11-22" });
    expect(csv[0]).toEqual(["Date", "Revenue (USD)", "Orders", "Fees (USD)"]);
    expect(csv).toHaveLength(31);
    expect(csv[1]![0]).toBe("2026-10-24");
    expect(csv[30]![0]).toBe("2026-11-22");
    expect(csv.find((r) => r[0] === "2026-11-20")).toEqual(["2026-11-20", "20.00", "1", "0.30"]);
    const bad = await ctx.request("/api/admin/exports", { method: "POST", token: admin.token, json: { kind: "analytics-daily", filters: { days: "30", to: "2026-02-30" } } });
    expect(bad.status).toBe(400);
  });
});
