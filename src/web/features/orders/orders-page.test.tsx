import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import type { OrderDetail, OrderListItem, OrdersResponse } from "@contract/orders";
import type { AdminVendorsResponse } from "@contract/vendors";
import { CurrentUserContext } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import OrdersPage from "./orders-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const viewer: PublicUser = { id: "u-me", email: "me@example.com", name: "Me", role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false, twoStepEnrolmentDue: false };

const order = (over: Partial<OrderListItem>): OrderListItem => ({
  id: "o1",
  externalOrderId: "ord_100",
  externalLineId: "line_1",
  createdAt: "2026-11-01T10:00:00.000Z",
  status: "paid",
  customerEmail: "ada@example.com",
  vendorId: "v1",
  vendorName: "Moon Studio",
  productName: "Moonlit Vase",
  quantity: 2,
  amount: 80,
  fee: 8,
  refundedInParts: 0,
  ...over,
});
const page = (orders: OrderListItem[], more: Partial<OrdersResponse> = {}): OrdersResponse => ({ orders, nextCursor: null, ...more });
const detail: OrderDetail = {
  order: order({ refundedInParts: 20, amount: 60, fee: 6 }),
  vendor: { id: "v1", name: "Moon Studio", slug: "moon-studio", isActive: true },
  amounts: { charged: 80, refunded: 20, platformFee: 6, artistNet: 54, feeRateBasisPoints: 1000 },
  refunds: [{ refundId: "re_9", amount: 20, refundedAt: "2026-11-03T09:00:00.000Z", reason: "Arrived broken", by: "ops@hki.global", nettedFromNextPayout: true }],
  timeline: [
    { kind: "placed", at: "2026-11-01T10:00:00.000Z", amount: 80, refundId: null, reason: null, by: null, nettedFromNextPayout: false, note: null, panelRefundId: null },
    { kind: "refunded", at: "2026-11-03T09:00:00.000Z", amount: 20, refundId: "re_9", reason: "Arrived broken", by: "ops@hki.global", nettedFromNextPayout: true, note: null, panelRefundId: null },
  ],
  siblings: [order({ refundedInParts: 20, amount: 60 }), order({ id: "o2", externalLineId: "line_2", vendorId: "v2", vendorName: "Sun Prints", productName: "Sun Print", amount: 30 })],
  paymentIntentId: "pi_100",
  refundable: [
    { orderId: "o1", amount: 60 },
    { orderId: "o2", amount: 30 },
  ],
  panelRefunds: [],
  disputes: [],
  carriedBy: { payoutId: "po1", status: "paid", transferId: "tr_1", paidAt: "2026-11-02T09:00:00.000Z" },
};

function renderPage(url: string) {
  const router = createMemoryRouter(
    [
      { path: "/orders", element: <OrdersPage /> },
      { path: "/vendors/:id", element: <p>Vendor screen</p> },
    ],
    { initialEntries: [url] },
  );
  renderWithQuery(
    <CurrentUserContext.Provider value={viewer}>
      <RouterProvider router={router} />
      <Toaster />
    </CurrentUserContext.Provider>,
  );
  return router;
}

const listCalls = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls
    .map(([u]) => String(u))
    .filter((u) => u.includes("/api/admin/orders?"))
    .map((u) => Object.fromEntries(new URL(u, "http://x").searchParams));

describe("OrdersPage", () => {
  it("shows the rows with buyer, artist and state, and passes the URL's filters and sort to the server", async () => {
    const fetch = mockFetch(() => json(page([order({}), order({ id: "o2", status: "refunded", customerEmail: null })], { nextCursor: "c2" })));
    renderPage("/orders?status=paid&sort=-amount&vendorId=v1&from=2026-11-01&to=2026-11-30");
    const row = await screen.findByTestId("order-row-o1");
    expect(within(row).getByText("ord_100 / line_1")).toBeInTheDocument();
    expect(within(row).getByText("ada@example.com")).toBeInTheDocument();
    expect(within(row).getByRole("link", { name: "Moon Studio" })).toHaveAttribute("href", "/vendors/v1");
    expect(within(row).getByText("Paid")).toBeInTheDocument();
    expect(within(screen.getByTestId("order-row-o2")).getByText("Refunded")).toBeInTheDocument();
    expect(screen.getByTestId("order-vendor-filter")).toHaveTextContent("Moon Studio");
    expect(listCalls(fetch)[0]).toMatchObject({ status: "paid", sort: "-amount", vendorId: "v1", from: "2026-11-01", to: "2026-11-30", limit: "50" });
    expect(screen.getByRole("columnheader", { name: /Amount/ })).toHaveAttribute("aria-sort", "descending");
    expect(screen.getByLabelText("Placed from")).toHaveValue("2026-11-01");
  });

  it("searches by the buyer's e-mail through the URL and pages on with the cursor", async () => {
    const user = userEvent.setup();
    const fetch = mockFetch((url) => json(url.includes("cursor=c2") ? page([order({ id: "o3" })]) : page([order({})], { nextCursor: "c2" })));
    const router = renderPage("/orders");
    await screen.findByTestId("order-row-o1");
    await user.type(screen.getByLabelText("Search orders"), "ada@example.com");
    await waitFor(() => expect(router.state.location.search).toBe("?search=ada%40example.com"));
    await waitFor(() => expect(listCalls(fetch).some((q) => q.search === "ada@example.com")).toBe(true));
    await user.click(await screen.findByRole("button", { name: /next/i }));
    expect(await screen.findByTestId("order-row-o3")).toBeInTheDocument();
    expect(listCalls(fetch).at(-1)).toMatchObject({ search: "ada@example.com", cursor: "c2" });
  });

  it("filters by an artist chosen by name, and names the artist in force with a way back to every artist", async () => {
    const user = userEvent.setup();
    const artists: AdminVendorsResponse = {
      vendors: [
        {
          id: "v2",
          name: "Sun Prints",
          owner: "Owner",
          email: "sun@shop.example",
          slug: "sun-prints",
          joinedDate: "2026-05-01T00:00:00.000Z",
          isActive: true,
          isInternal: false,
          products: 3,
          revenue: 10,
        },
      ],
      total: 1,
      totalCapped: false,
      page: 1,
      limit: 8,
      counts: { total: 1, active: 1, inactive: 0, internal: 0, applications: 0 },
      nextCursor: null,
    };
    const fetch = mockFetch((url) =>
      url.includes("/api/admin/vendors?") ? json(artists) : json(page(url.includes("vendorId=v2") ? [order({ id: "o2", vendorId: "v2", vendorName: "Sun Prints" })] : [order({})])),
    );
    const router = renderPage("/orders");
    await screen.findByTestId("order-row-o1");
    await user.type(screen.getByLabelText("Artist"), "sun");
    await user.click(await within(await screen.findByRole("list", { name: "Matching artists" })).findByRole("button", { name: "Sun Prints" }));
    await waitFor(() => expect(router.state.location.search).toBe("?vendorId=v2"));
    expect(await screen.findByTestId("order-row-o2")).toBeInTheDocument();
    expect(listCalls(fetch).at(-1)).toMatchObject({ vendorId: "v2" });
    expect(screen.getByTestId("order-vendor-filter")).toHaveTextContent("Only the orders of Sun Prints");
    await user.click(screen.getByRole("button", { name: "Show every artist" }));
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("opens a line from its row: amounts, the timeline with the refund and its reason, the order's other lines", async () => {
    const user = userEvent.setup();
    mockFetch((url) => (url.includes("/api/admin/orders/o1") ? json(detail) : json(page([order({})]))));
    const router = renderPage("/orders");
    await user.click(await screen.findByRole("button", { name: "Open order ord_100 / line_1" }));
    const dialog = await screen.findByRole("dialog");
    expect(router.state.location.search).toBe("?order=o1");
    expect(await within(dialog).findByTestId("order-charged")).toHaveTextContent("$80.00");
    expect(within(dialog).getByTestId("order-refunded")).toHaveTextContent("$20.00");
    expect(within(dialog).getByTestId("order-artist-net")).toHaveTextContent("$54.00");
    const timeline = within(dialog).getByRole("region", { name: "Timeline" });
    expect(within(timeline).getByTestId("order-event-refunded")).toHaveTextContent("Stripe refund re_9");
    expect(within(timeline).getByTestId("order-event-refunded")).toHaveTextContent("Reason: Arrived broken");
    expect(within(timeline).getByTestId("order-event-refunded")).toHaveTextContent("By ops@hki.global");
    expect(within(timeline).getByTestId("order-event-refunded")).toHaveTextContent("their share comes off their next payout");
    expect(within(dialog).getByTestId("order-payout")).toHaveTextContent("payout tr_1");
    // A viewer sees the refund action refused.
    expect(within(dialog).getByRole("button", { name: "Refund…" })).toBeDisabled();
    const lines = within(dialog).getByRole("region", { name: "Lines of this order" });
    expect(lines).toHaveTextContent("Sun Prints");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("says when nothing matches, and says a failure with Try Again", async () => {
    mockFetch(() => json(page([])));
    renderPage("/orders?search=ord_none");
    expect(await screen.findByText("No orders match these filters.")).toBeInTheDocument();
    vi.unstubAllGlobals();
    mockFetch(() => json({ error: { code: "internal", message: "Database is down" } }, 500, "Internal Server Error"));
    renderPage("/orders?status=refunded");
    expect(await screen.findByText("Error Loading Orders")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try Again" })).toBeInTheDocument();
  });
});
