import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import type { CheckRefundResponse, PanelRefund } from "@contract/orders";
import { CurrentUserContext } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { RefundCheck } from "./refund-check";

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

function renderCheck(as: PublicUser) {
  renderWithQuery(
    <CurrentUserContext.Provider value={as}>
      <RefundCheck refund={unknown} paymentIntentId="pi_100" />
      <Toaster />
    </CurrentUserContext.Provider>,
  );
}

describe("RefundCheck", () => {
  it("says what an unknown outcome means, asks before checking, shows the progress and what Stripe said", async () => {
    const u = userEvent.setup();
    let answer!: (r: Response) => void;
    const fetch = mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderCheck(user("finance"));
    expect(screen.getByTestId("refund-check")).toHaveTextContent("the refund may have been made");
    expect(screen.getByTestId("refund-check")).toHaveTextContent("Not checked with Stripe yet");
    await u.click(screen.getByRole("button", { name: "Check with Stripe" }));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm).toHaveTextContent("Check the refund of $30.00 with Stripe?");
    expect(confirm).toHaveTextContent("(pi_100)");
    expect(confirm).toHaveTextContent("never asks Stripe to refund again");
    expect(fetch).not.toHaveBeenCalled();
    await u.click(within(confirm).getByRole("button", { name: "Check with Stripe" }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toContain("/api/admin/orders/refunds/r1/check");
    expect(init?.method).toBe("POST");
    expect(await screen.findByRole("button", { name: "Checking with Stripe…" })).toBeDisabled();
    const result: CheckRefundResponse = {
      refund: { ...unknown, status: "succeeded", stripeRefundId: "re_1", failureReason: null, checkedAt: "2026-11-05T10:05:00.000Z" },
      outcome: "succeeded",
      message: "Stripe made the refund re_1 of $30.00",
    };
    answer(json(result));
    expect(await screen.findByText("Refunded $30.00: Stripe made the refund")).toBeInTheDocument();
    expect(within(screen.getByTestId("refund-check")).getByRole("status")).toHaveTextContent("Stripe: Stripe made the refund re_1 of $30.00");
  });

  it("says when Stripe cannot answer, and shows a viewer the button refused", async () => {
    const u = userEvent.setup();
    mockFetch(() => json({ error: { code: "payment_provider_error", message: "Stripe could not answer (timeout): nothing changed, try again later" } }, 502, "Bad Gateway"));
    renderCheck(user("finance"));
    await u.click(screen.getByRole("button", { name: "Check with Stripe" }));
    await u.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Check with Stripe" }));
    expect(await screen.findByText(/Failed to check with Stripe: Stripe could not answer \(timeout\): nothing changed/)).toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it("is refused to a viewer", () => {
    renderCheck(user("viewer"));
    expect(screen.getByRole("button", { name: "Check with Stripe" })).toBeDisabled();
  });
});
