import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import type { ProductsSummary, ReviewResponse } from "@contract/products";
import { SETTING_KEY_LIST } from "@contract/settings";
import { CurrentUserContext } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import ProductsPage from "./products-page";
import { waitingFor } from "./review-tab";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u-me", email: "me@hki.global", name: "Me", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const summary: ProductsSummary = {
  counts: { total: 20, active: 10, draft: 5, hidden: 1, pendingReview: 3, rejected: 1 },
  addedThisWeek: 4,
  overLimit: { limit: 100, vendors: 0, top: [] },
};
const queue: ReviewResponse = {
  products: [
    { id: "r1", name: "Heron at Dusk", vendorId: "v1", vendorName: "Moon Studio", vendorTakedowns: 2, price: 85, inventory: 3, createdAt: "2026-11-20T10:00:00.000Z" },
    { id: "r2", name: "Reed Bed Study", vendorId: "v2", vendorName: "Reed Press", vendorTakedowns: 0, price: 42, inventory: 1, createdAt: "2026-11-21T10:00:00.000Z" },
  ],
  total: 3,
  nextCursor: null,
};

const TEMPLATES = "Infringement: the work is not the artist's own\nImages are missing";
const settings = Object.fromEntries(
  SETTING_KEY_LIST.map((key) => [key, { value: key === "listing_reason_templates" ? TEMPLATES : "", description: "", updatedAt: "2026-11-22T12:00:00.000Z", updatedBy: null }]),
);

function renderPage(url: string) {
  const router = createMemoryRouter([{ path: "/products", element: <ProductsPage /> }], { initialEntries: [url] });
  renderWithQuery(
    <CurrentUserContext.Provider value={admin}>
      <RouterProvider router={router} />
      <Toaster />
    </CurrentUserContext.Provider>,
  );
}

/** The Products screen's Review tab (docs/product.md §20.4). */
describe("Review tab", () => {
  it("says how long a listing has waited, in hours under a day", () => {
    const now = Date.parse("2026-11-22T12:00:00.000Z");
    expect(waitingFor("2026-11-22T07:00:00.000Z", now)).toBe("5 hours");
    expect(waitingFor("2026-11-19T12:00:00.000Z", now)).toBe("3 days");
  });

  it("shows the count on the tab and the queue oldest first with the artist's takedowns; a reject needs a reason and sends the infringement its template marks", async () => {
    const user = userEvent.setup();
    const sent: Array<{ url: string; body: unknown }> = [];
    mockFetch((url, init) => {
      if (url.includes("/summary")) return json(summary);
      if (url.includes("/api/admin/settings")) return json(settings);
      if (init?.method === "POST") {
        sent.push({ url, body: JSON.parse(String(init.body)) });
        return json({
          id: "r1",
          name: "Heron at Dusk",
          vendorId: "v1",
          vendorName: "Moon Studio",
          price: 85,
          inventory: 3,
          sold: 0,
          revenue: 0,
          status: "rejected",
          createdAt: "2026-11-20T10:00:00.000Z",
        });
      }
      if (url.includes("/api/admin/products/review")) return json(queue);
      return json({ products: [], total: 0, totalCapped: false, nextCursor: null });
    });
    renderPage("/products?tab=review");
    const tab = await screen.findByRole("tab", { name: /^Review/ });
    await waitFor(() => expect(tab).toHaveTextContent("3"));
    const table = await screen.findByRole("table", { name: "Listings waiting for review" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getAllByRole("cell")[1]?.textContent)).toEqual(["Heron at Dusk", "Reed Bed Study"]);
    expect(within(rows[0]!).getByText("2")).toBeInTheDocument();
    expect(screen.getByText(/3 listings waiting/)).toBeInTheDocument();

    await user.click(within(rows[0]!).getByRole("button", { name: "Reject Heron at Dusk" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Reject listing" }));
    expect(within(dialog).getByText(/A reason is required/)).toBeInTheDocument();
    expect(sent).toEqual([]);
    await user.click(await within(dialog).findByRole("button", { name: "Infringement: the work is not the artist's own" }));
    expect(within(dialog).getByRole("checkbox")).toBeChecked();
    await user.click(within(dialog).getByRole("button", { name: "Reject listing" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toContain("/api/admin/products/r1/review");
    expect(sent[0]!.body).toEqual({ decision: "reject", reason: "Infringement: the work is not the artist's own", infringement: true });
    expect(await screen.findByText('"Heron at Dusk" rejected')).toBeInTheDocument();
  });

  it("approves the selected listings at once after a confirmation naming how many; a refusal keeps them selected", async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    let refuse = true;
    mockFetch((url, init) => {
      if (url.includes("/summary")) return json(summary);
      if (url.includes("/api/admin/settings")) return json(settings);
      if (init?.method === "POST" && url.includes("/bulk-approve")) {
        sent.push(JSON.parse(String(init.body)));
        if (refuse) return json({ error: { code: "invalid_state", message: "Reed Bed Study is no longer waiting for review" } }, 409);
        return json({ approved: 2 });
      }
      if (url.includes("/api/admin/products/review")) return json(queue);
      return json({ products: [], total: 0, totalCapped: false, nextCursor: null });
    });
    renderPage("/products?tab=review");
    await user.click(await screen.findByRole("checkbox", { name: "Select Heron at Dusk" }));
    await user.click(screen.getByRole("checkbox", { name: "Select Reed Bed Study" }));
    await user.click(screen.getByRole("button", { name: "Approve selected" }));
    const confirmation = await screen.findByRole("alertdialog");
    expect(confirmation).toHaveTextContent("Approve 2 listings? Each goes live as its artist has it");
    await user.click(within(confirmation).getByRole("button", { name: "Approve 2 listings" }));
    expect(await screen.findByText(/Failed to approve 2 listings: Reed Bed Study is no longer waiting for review/)).toBeInTheDocument();
    expect(screen.getByText("2 listings selected")).toBeInTheDocument();

    refuse = false;
    await user.click(screen.getByRole("button", { name: "Approve selected" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Approve 2 listings" }));
    expect(await screen.findByText("2 listings approved")).toBeInTheDocument();
    expect(screen.queryByText("2 listings selected")).not.toBeInTheDocument();
    expect(sent).toEqual([{ ids: ["r1", "r2"] }, { ids: ["r1", "r2"] }]);
  });
});
