import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CreateRefundResponse, OrderDetail, OrderListItem } from "@contract/orders";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { RefundDialog } from "./refund-dialog";

afterEach(() => {
  vi.unstubAllGlobals();
});

const line = (over: Partial<OrderListItem>): OrderListItem => ({
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
  amount: 60,
  fee: 0.9,
  refundedInParts: 0,
  ...over,
});

const detail: OrderDetail = {
  order: line({}),
  vendor: { id: "v1", name: "Moon Studio", slug: "moon-studio", isActive: true },
  amounts: { charged: 60, refunded: 0, platformFee: 0.9, artistNet: 59.1, feeRateBasisPoints: 150 },
  refunds: [],
  timeline: [],
  siblings: [line({}), line({ id: "o2", externalLineId: "line_2", vendorId: "v2", vendorName: "Sun Prints", productName: "Sun Print", amount: 30 })],
  paymentIntentId: "pi_100",
  refundable: [
    { orderId: "o1", amount: 60 },
    { orderId: "o2", amount: 30 },
  ],
  panelRefunds: [],
  disputes: [],
  carriedBy: { payoutId: "po1", status: "paid", transferId: "tr_1", paidAt: "2026-11-02T09:00:00.000Z" },
};

const answer: CreateRefundResponse = {
  refund: {
    id: "r1",
    status: "succeeded",
    amount: 25,
    reason: "Arrived broken",
    stripeRefundId: "re_1",
    failureReason: null,
    checkedAt: null,
    createdByEmail: "ops@hki.global",
    createdAt: "2026-11-05T10:00:00.000Z",
    updatedAt: "2026-11-05T10:00:00.000Z",
    lines: [{ orderId: "o1", amount: 25 }],
  },
  message: "Refunded $25.00: Stripe refund re_1.",
};

describe("RefundDialog", () => {
  it("refunds part of one line with a reason, saying before what will happen (netted: the artist was paid)", async () => {
    const user = userEvent.setup();
    const fetch = mockFetch(() => json(answer, 201, "Created"));
    const onClose = vi.fn();
    renderWithQuery(
      <>
        <RefundDialog detail={detail} lineId="o1" open onClose={onClose} />
        <Toaster />
      </>,
    );
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).getByRole("checkbox", { name: /ord_100 \/ line_1/ })).toBeChecked();
    expect(within(dialog).getByRole("checkbox", { name: /ord_100 \/ line_2/ })).not.toBeChecked();
    const amount = within(dialog).getByLabelText("Amount to refund of ord_100 / line_1 (dollars)");
    await user.clear(amount);
    await user.type(amount, "25");
    expect(within(dialog).getByTestId("refund-summary")).toHaveTextContent("$25.00 goes back to the buyer's card");
    expect(within(dialog).getByTestId("refund-summary")).toHaveTextContent("Moon Studio was already paid for this line: their share comes off their next payout");
    await user.click(within(dialog).getByRole("button", { name: "Refund $25.00" }));
    expect(await within(dialog).findByText(/A reason is required/)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    await user.type(within(dialog).getByLabelText("Reason"), "Arrived broken");
    await user.click(within(dialog).getByRole("button", { name: "Refund $25.00" }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toContain("/api/admin/orders/o1/refunds");
    expect(JSON.parse(String(init?.body))).toEqual({ reason: "Arrived broken", lines: [{ orderId: "o1", amountCents: 2500 }] });
    expect(await screen.findByText("Refunded $25.00")).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
  });

  it("'Whole order' sends no lines (every line, all it has left), and an amount over what is left is refused before asking", async () => {
    const user = userEvent.setup();
    const fetch = mockFetch(() => json({ ...answer, refund: { ...answer.refund, amount: 90 } }, 201, "Created"));
    renderWithQuery(<RefundDialog detail={detail} lineId="o1" open onClose={() => undefined} />);
    const dialog = screen.getByRole("dialog");
    const amount = within(dialog).getByLabelText("Amount to refund of ord_100 / line_1 (dollars)");
    await user.clear(amount);
    await user.type(amount, "61");
    await user.type(within(dialog).getByLabelText("Reason"), "Cancelled");
    await user.click(within(dialog).getByRole("button", { name: "Refund $61.00" }));
    expect(await within(dialog).findByText("At most $60.00 is left to refund")).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole("button", { name: "Whole order" }));
    expect(within(dialog).getByTestId("refund-summary")).toHaveTextContent("$90.00 goes back to the buyer's card (the whole order)");
    await user.click(within(dialog).getByRole("button", { name: "Refund $90.00" }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(JSON.parse(String(fetch.mock.calls[0]![1]?.body))).toEqual({ reason: "Cancelled" });
  });
});
