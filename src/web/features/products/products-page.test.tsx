import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import type { ProductDetail, ProductListItem, ProductsResponse, ProductsSummary } from "@contract/products";
import { CurrentUserContext } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import ProductsPage from "./products-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u-me", email: "me@hki.global", name: "Me", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };

const product = (over: Partial<ProductListItem>): ProductListItem => ({
  id: "p1",
  name: "Moonlit Vase",
  vendorId: "v1",
  vendorName: "Moon Studio",
  price: 42.5,
  inventory: 3,
  sold: 7,
  revenue: 297.5,
  status: "active",
  createdAt: "2026-11-01T10:00:00.000Z",
  ...over,
});
const summary: ProductsSummary = {
  counts: { total: 1234, active: 1100, draft: 120, hidden: 14, pendingReview: 0, rejected: 0 },
  addedThisWeek: 56,
  overLimit: { limit: 100, vendors: 1, top: [{ id: "v9", name: "Prolific Prints", listedProducts: 103 }] },
};
const page = (products: ProductListItem[], more: Partial<ProductsResponse> = {}): ProductsResponse => ({ products, total: products.length, totalCapped: false, nextCursor: null, ...more });
const detail: ProductDetail = {
  product: { ...product({ status: "hidden" }), moderationReason: "Trademarked logo", moderatedAt: "2026-11-20T10:00:00.000Z", moderatedBy: "me@hki.global" },
  vendor: { id: "v1", name: "Moon Studio", slug: "moon-studio", isActive: true, listedProducts: 12, productLimit: 100 },
  sales: { sold: 7, revenue: 297.5, averageUnitPrice: 42.5 },
  history: [
    { id: "h1", action: "hide", infringement: false, fromStatus: "active", toStatus: "hidden", reason: "Trademarked logo", actorEmail: "me@hki.global", createdAt: "2026-11-20T10:00:00.000Z" },
  ],
};

function renderPage(url: string) {
  const router = createMemoryRouter(
    [
      { path: "/products", element: <ProductsPage /> },
      { path: "/vendors/:id", element: <p>Vendor screen</p> },
    ],
    { initialEntries: [url] },
  );
  renderWithQuery(
    <CurrentUserContext.Provider value={admin}>
      <RouterProvider router={router} />
      <Toaster />
    </CurrentUserContext.Provider>,
  );
  return router;
}

describe("ProductsPage", () => {
  it("shows the summary, the rows with their vendor and status, and passes filters and sort from the URL to the server", async () => {
    const fetch = mockFetch((url) =>
      url.includes("/summary") ? json(summary) : json(page([product({}), product({ id: "p2", name: "Draft Mug", status: "draft" })], { total: 10_000, totalCapped: true, nextCursor: "c2" })),
    );
    renderPage("/products?status=active&sort=-revenue&vendorId=v1");
    await waitFor(() => expect(screen.getByTestId("product-count-total")).toHaveTextContent("1,234"));
    expect(screen.getByTestId("product-count-hidden")).toHaveTextContent("14");
    expect(screen.getByTestId("product-count-over-limit")).toHaveTextContent("1");
    const row = await screen.findByTestId("product-row-p1");
    expect(within(row).getByRole("link", { name: "Moon Studio" })).toHaveAttribute("href", "/vendors/v1");
    expect(within(row).getByText("Active")).toBeInTheDocument();
    expect(within(row).getByRole("button", { name: "Hide Moonlit Vase" })).toBeEnabled();
    expect(within(screen.getByTestId("product-row-p2")).queryByRole("button", { name: /Hide|Restore/ })).not.toBeInTheDocument();
    expect(screen.getByText(/10,000\+ products match/)).toBeInTheDocument();
    expect(screen.getByTestId("product-vendor-filter")).toHaveTextContent("Moon Studio");
    const listCall = fetch.mock.calls.map(([u]) => String(u)).find((u) => u.includes("/api/admin/products?"))!;
    const query = new URL(listCall, "http://x").searchParams;
    expect(Object.fromEntries(query)).toMatchObject({ status: "active", sort: "-revenue", vendorId: "v1", limit: "50" });
    expect(screen.getByRole("columnheader", { name: /Revenue/ })).toHaveAttribute("aria-sort", "descending");
  });

  it("?overLimit=true (the 'Needs Attention' link) asks the server for the vendors over the product limit, and the select leaves it", async () => {
    const user = userEvent.setup();
    const fetch = mockFetch((url) => (url.includes("/summary") ? json(summary) : json(page([product({ vendorId: "v9", vendorName: "Prolific Prints" })]))));
    const router = renderPage("/products?overLimit=true");
    await screen.findByTestId("product-row-p1");
    expect(screen.getByTestId("product-over-limit-filter")).toHaveTextContent("Only the products of the vendors over the product limit");
    const select = screen.getByLabelText("Vendors over the product limit");
    expect(select).toHaveValue("over");
    const listCall = fetch.mock.calls.map(([u]) => String(u)).find((u) => u.includes("/api/admin/products?"))!;
    expect(new URL(listCall, "http://x").searchParams.get("overLimit")).toBe("true");
    await user.selectOptions(select, "v9");
    await waitFor(() => expect(router.state.location.search).toBe("?vendorId=v9"));
    await user.selectOptions(select, "over");
    await waitFor(() => expect(router.state.location.search).toBe("?overLimit=true"));
  });

  it("hides a product only with a reason, naming what will happen, and sends it", async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    mockFetch((url, init) => {
      if (url.includes("/summary")) return json(summary);
      if (init?.method === "PATCH") {
        sent.push(JSON.parse(String(init.body)));
        return json(product({ status: "hidden" }));
      }
      return json(page([product({})]));
    });
    renderPage("/products");
    await user.click(await screen.findByRole("button", { name: "Hide Moonlit Vase" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText(/The artist is shown the reason/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Hide 1 product" }));
    expect(within(dialog).getByText(/A reason is required/)).toBeInTheDocument();
    expect(sent).toEqual([]);
    await user.type(within(dialog).getByLabelText("Reason (shown to the artist)"), "Trademarked logo");
    await user.click(within(dialog).getByRole("button", { name: "Hide 1 product" }));
    await waitFor(() => expect(sent).toEqual([{ status: "hidden", reason: "Trademarked logo" }]));
    expect(await screen.findByText('"Moonlit Vase" hidden')).toBeInTheDocument();
  });

  it("bulk: the selection's actions refuse drafts, and hide sends every selected id", async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    mockFetch((url, init) => {
      if (url.includes("/summary")) return json(summary);
      if (url.includes("/bulk-status")) {
        sent.push(JSON.parse(String(init!.body)));
        return json({ changed: 2, unchanged: 0 });
      }
      return json(page([product({}), product({ id: "p2", name: "Amber Print" }), product({ id: "p3", name: "Draft Mug", status: "draft" })]));
    });
    renderPage("/products");
    await user.click(await screen.findByRole("checkbox", { name: "Select Moonlit Vase" }));
    await user.click(screen.getByRole("checkbox", { name: "Select Draft Mug" }));
    expect(screen.getByTestId("product-selection-count")).toHaveTextContent("2 products selected");
    expect(screen.getByRole("button", { name: "Hide selected" })).toBeDisabled();
    await user.click(screen.getByRole("checkbox", { name: "Select Draft Mug" }));
    await user.click(screen.getByRole("checkbox", { name: "Select Amber Print" }));
    await user.click(screen.getByRole("button", { name: "Hide selected" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText(/All of them change, or none does/)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Reason (shown to the artist)"), "Counterfeit");
    await user.click(within(dialog).getByRole("button", { name: "Hide 2 products" }));
    await waitFor(() => expect(sent).toEqual([{ ids: ["p1", "p2"], status: "hidden", reason: "Counterfeit" }]));
  });

  it("opens a product from the URL with its figures, the reason it is hidden and its history", async () => {
    mockFetch((url) => (url.includes("/summary") ? json(summary) : url.includes("/api/admin/products/p1") ? json(detail) : json(page([product({ status: "hidden" })]))));
    renderPage("/products?product=p1");
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByTestId("product-hidden-reason")).toHaveTextContent("Trademarked logo");
    expect(within(dialog).getByText("12 listed of a limit of 100")).toBeInTheDocument();
    expect(within(dialog).getByRole("region", { name: "Moderation history" })).toHaveTextContent("Hidden by me@hki.global");
    expect(within(dialog).getByRole("button", { name: "Restore…" })).toBeEnabled();
  });

  it("says a failure and offers Try Again; a too-short search is not sent", async () => {
    const user = userEvent.setup();
    const fetch = mockFetch((url) => (url.includes("/summary") ? json(summary) : json({ error: { code: "internal", message: "Database is down" } }, 500, "Internal Server Error")));
    renderPage("/products");
    expect(await screen.findByText("Error Loading Products")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try Again" })).toBeInTheDocument();
    await user.type(screen.getByLabelText("Search products"), "ab");
    expect(await screen.findByText(/Type at least 3 characters/)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 400));
    expect(fetch.mock.calls.map(([u]) => String(u)).filter((u) => u.includes("search="))).toEqual([]);
  });
});
