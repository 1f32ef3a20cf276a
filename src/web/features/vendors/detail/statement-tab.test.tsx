import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { StatementResponse } from "@contract/financials";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { StatementTab } from "./statement-tab";

afterEach(() => {
  vi.unstubAllGlobals();
});

const first: StatementResponse = {
  entries: [
    { id: "r1", at: "2026-11-20T10:00:00.000Z", kind: "refund", description: "Refund ord_1 / line_1: $25.00 back to the buyer", reference: "re_1", orderId: "o1", amount: -24.63, balance: 49.26 },
    { id: "s1", at: "2026-11-10T10:00:00.000Z", kind: "sale", description: "Sale ord_1 / line_1: Vase × 1", reference: "ord_1", orderId: "o1", amount: 73.89, balance: 73.89 },
  ],
  nextCursor: "c2",
  balance: 49.26,
};
const second: StatementResponse = {
  entries: [
    {
      id: "b1",
      at: "2026-11-01T00:00:00.000Z",
      kind: "subscription",
      description: "Subscription artist-monthly: $29.99 a month, paid by card (not from the balance)",
      reference: "sub_1",
      orderId: null,
      amount: 0,
      balance: 0,
    },
  ],
  nextCursor: null,
  balance: 49.26,
};

describe("StatementTab", () => {
  it("lists the artist's entries newest first with the running balance, links an entry to its order, pages on with the cursor", async () => {
    const fetch = mockFetch((url) => json(url.includes("cursor=c2") ? second : first));
    const router = createMemoryRouter([{ path: "/vendors/:vendorId", element: <StatementTab vendorId="v1" /> }], { initialEntries: ["/vendors/v1?tab=statement"] });
    renderWithQuery(<RouterProvider router={router} />);
    expect(await screen.findByText("Owed now: $49.26")).toBeInTheDocument();
    const table = screen.getByRole("table", { name: "Statement" });
    const rows = within(table).getAllByRole("row");
    expect(rows[1]).toHaveTextContent("Refund");
    expect(rows[1]).toHaveTextContent("-$24.63");
    expect(rows[1]).toHaveTextContent("$49.26");
    expect(within(rows[1]!).getByRole("link")).toHaveAttribute("href", "/orders?order=o1");
    await userEvent.click(screen.getByRole("button", { name: /next/i }));
    expect(await screen.findByText(/paid by card/)).toBeInTheDocument();
    expect(router.state.location.search).toContain("statement.cursor=c2");
    expect(String(fetch.mock.calls.at(-1)![0])).toContain("/api/admin/vendors/v1/statement?limit=25&cursor=c2");
  });
});
