import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import type { CheckRefundResponse, OrderDetail, OrderListItem, PanelRefund } from "@contract/orders";
import { CurrentUserContext } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import OrdersPage from "./orders-page";
import { RefundCheck, useRefundChecks } from "./refund-check";

afterEach(() => {
  vi.unstubAllGlobals();
});

const user = (staffRole: "finance" | "viewer"): PublicUser => ({
  id: "u-me",
  email: "me@example.com",
  name: "Me",
  role: staffRole,
  isAdmin: false,
  staffRole,
  panelAccess: true,
  canWrite: staffRole !== "viewer",
  twoStepEnrolmentDue: false,
});

const line: OrderListItem = {
  id: "o1",
  externalOrderId: "ord_100",
  externalLineId: "line_1",
  createdAt: "2026-11-01T10:00:00.000Z",
  status: "paid",
  customerEmail: "ada@example.com",
  vendorId: "v1",
  vendorName: "Moon Studio",
  productName: "Moonlit Vase",
  quantity: 1,
  amount: 80,
  fee: 1.2,
  refundedInParts: 0,
};

const unknown: PanelRefund = {
  id: "r1",
  status: "unknown",
  amount: 30,
  reason: "Arrived broken",
  stripeRefundId: null,
  failureReason: "An unknown error occurred",
  checkedAt: null,
  createdByEmail: "ops@example.com",
  createdAt: "2026-11-05T10:00:00.000Z",
  updatedAt: "2026-11-05T10:00:00.000Z",
  lines: [{ orderId: "o1", amount: 30 }],
};

const step = { refundId: null, reason: "Arrived broken", by: "ops@example.com", nettedFromNextPayout: false, note: null, panelRefundId: null };
const placed = { ...step, kind: "placed" as const, at: "2026-11-01T10:00:00.000Z", amount: 80, reason: null, by: null };

/** The order with the refund not settled, and as it reads once Stripe's refund is recorded. */
const before: OrderDetail = {
  order: line,
  vendor: { id: "v1", name: "Moon Studio", slug: "moon-studio", isActive: true },
  amounts: { charged: 80, refunded: 0, platformFee: 1.2, artistNet: 78.8, feeRateBasisPoints: 150 },
  refunds: [],
  timeline: [placed, { ...step, kind: "refund_requested", at: "2026-11-05T10:00:00.000Z", amount: 30, note: "An unknown error occurred", panelRefundId: "r1" }],
  siblings: [line],
  paymentIntentId: "pi_100",
  refundable: [{ orderId: "o1", amount: 50 }],
  panelRefunds: [unknown],
  disputes: [],
  carriedBy: null,
};
const after: OrderDetail = {
  ...before,
  order: { ...line, amount: 50, refundedInParts: 30 },
  amounts: { ...before.amounts, refunded: 30, platformFee: 0.75, artistNet: 49.25 },
  timeline: [placed, { ...step, kind: "refunded", at: "2026-11-05T10:05:00.000Z", amount: 30, refundId: "re_1" }],
  panelRefunds: [{ ...unknown, status: "succeeded", stripeRefundId: "re_1", failureReason: null, checkedAt: "2026-11-05T10:05:00.000Z" }],
};

function Harness({ refund }: { refund: PanelRefund }) {
  return <RefundCheck refund={refund} paymentIntentId="pi_100" checks={useRefundChecks()} />;
}

function renderAlone(as: PublicUser) {
  renderWithQuery(
    <CurrentUserContext.Provider value={as}>
      <Harness refund={unknown} />
      <Toaster />
    </CurrentUserContext.Provider>,
  );
}

describe("'Check with Stripe' on a refund", () => {
  it("on the open order: says what unknown means, asks first, shows the progress, then Stripe's answer once the step is replaced by the refund", async () => {
    const u = userEvent.setup();
    let answer!: (r: Response) => void;
    let checked = false;
    const fetch = mockFetch((url) => {
      if (url.includes("/api/admin/orders/refunds/r1/check")) {
        checked = true;
        return new Promise<Response>((resolve) => (answer = resolve));
      }
      if (url.includes("/api/admin/orders/o1")) return json(checked ? after : before);
      return json({ orders: [line], nextCursor: null });
    });
    const router = createMemoryRouter([{ path: "/orders", element: <OrdersPage /> }], { initialEntries: ["/orders?order=o1"] });
    renderWithQuery(
      <CurrentUserContext.Provider value={user("finance")}>
        <RouterProvider router={router} />
        <Toaster />
      </CurrentUserContext.Provider>,
    );
    const dialog = await screen.findByRole("dialog");
    const box = await within(dialog).findByTestId("refund-check");
    expect(within(within(dialog).getByTestId("order-event-refund_requested")).getByTestId("refund-check")).toBe(box);
    expect(box).toHaveTextContent("the refund may have been made");
    expect(box).toHaveTextContent("Not checked with Stripe yet");
    await u.click(within(box).getByRole("button", { name: "Check with Stripe" }));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm).toHaveTextContent("Check the refund of $30.00 with Stripe?");
    expect(confirm).toHaveTextContent("(pi_100)");
    expect(confirm).toHaveTextContent("never asks Stripe to refund again");
    expect(fetch.mock.calls.some(([u]) => String(u).includes("/check"))).toBe(false);
    await u.click(within(confirm).getByRole("button", { name: "Check with Stripe" }));
    await waitFor(() => expect(checked).toBe(true));
    const call = fetch.mock.calls.find(([u]) => String(u).includes("/check"))!;
    expect(call[1]?.method).toBe("POST");
    expect(await within(box).findByRole("button", { name: "Checking with Stripe…" })).toBeDisabled();
    const result: CheckRefundResponse = { refund: after.panelRefunds[0]!, outcome: "succeeded", message: "Stripe made the refund re_1 of $30.00" };
    answer(json(result));
    expect(await screen.findByText("Refunded $30.00: Stripe made the refund")).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).queryByTestId("refund-check")).toBeNull());
    expect(within(dialog).getByTestId("order-event-refunded")).toHaveTextContent("Stripe refund re_1");
    expect(within(dialog).getByTestId("order-refunded")).toHaveTextContent("$30.00");
  });

  it("still unknown: Stripe's answer stays beside the button; Stripe down: says so", async () => {
    const u = userEvent.setup();
    let down = false;
    mockFetch(() =>
      down
        ? json({ error: { code: "payment_provider_error", message: "Stripe could not answer (timeout): nothing changed, try again later" } }, 502, "Bad Gateway")
        : json({ refund: unknown, outcome: "unsettled", message: "Stripe lists no refund for this request yet" } satisfies CheckRefundResponse),
    );
    renderAlone(user("finance"));
    await u.click(screen.getByRole("button", { name: "Check with Stripe" }));
    await u.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Check with Stripe" }));
    expect(await screen.findByText("Stripe cannot say yet")).toBeInTheDocument();
    expect(within(screen.getByTestId("refund-check")).getByRole("status")).toHaveTextContent("Stripe: Stripe lists no refund for this request yet");
    down = true;
    await u.click(screen.getByRole("button", { name: "Check with Stripe" }));
    await u.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Check with Stripe" }));
    expect(await screen.findByText(/Failed to check with Stripe: Stripe could not answer \(timeout\): nothing changed/)).toBeInTheDocument();
  });

  it("is refused to a viewer", () => {
    renderAlone(user("viewer"));
    expect(screen.getByRole("button", { name: "Check with Stripe" })).toBeDisabled();
  });
});
