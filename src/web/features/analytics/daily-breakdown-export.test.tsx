import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { DailyBreakdownExport } from "./daily-breakdown-export";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("DailyBreakdownExport (issue 23)", () => {
  it("asks for the whole period on screen: its length and its last day", async () => {
    let body: unknown = null;
    mockFetch((url, init) => {
      body = url === "/api/admin/exports" ? JSON.parse(String(init?.body)) : body;
      return json({ url: "http://localhost/api/exports/t", expiresAt: "2026-11-22T12:01:00.000Z", filename: "analytics-daily.csv" }, 201);
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    const metrics = ["2026-11-20", "2026-11-21", "2026-11-22"].map((date) => ({ date, total_revenue: 1, total_orders: 1, total_fees: 0.02 }));
    renderWithQuery(<DailyBreakdownExport days={7} metrics={metrics} />);
    await userEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(body).toEqual({ kind: "analytics-daily", filters: { days: "7", to: "2026-11-22" } }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    click.mockRestore();
  });
});
