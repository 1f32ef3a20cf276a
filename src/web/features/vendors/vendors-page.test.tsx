import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminVendorsResponse } from "@contract/vendors";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { CurrentUserContext, READ_ONLY_REASON } from "@web/app/current-user";
import VendorsPage from "./vendors-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const page = (vendors: AdminVendorsResponse["vendors"], total = vendors.length): AdminVendorsResponse => ({
  vendors,
  total,
  totalCapped: false,
  page: 1,
  limit: 20,
  counts: { total: 50_000, active: 49_000, inactive: 1_000, internal: 3, applications: 0 },
  nextCursor: null,
});
const moon = {
  id: "v1",
  name: "Moonlit Ceramics",
  owner: "Ava Stone",
  email: "ava@moonlit.example",
  slug: "moonlit-ceramics",
  joinedDate: "2026-05-01T00:00:00.000Z",
  isActive: true,
  isInternal: true,
  products: 12,
  revenue: 1234.5,
};
const config = { storefrontUrl: "http://store.test", authProviderName: "Clerk" };

function renderPage() {
  const router = createMemoryRouter([{ path: "/vendors", element: <VendorsPage /> }], { initialEntries: ["/vendors"] });
  return renderWithQuery(
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>,
  );
}

describe("VendorsPage", () => {
  it("shows counts from the server, badges, store URL, and searches on the server", async () => {
    const fetchMock = mockFetch((url) => (url === "/api/config" ? json(config) : json(page([moon]))));
    renderPage();
    const row = await screen.findByTestId("vendor-row-moonlit-ceramics");
    expect(within(row).getByText("Active")).toBeInTheDocument();
    expect(within(row).getByText("Internal")).toBeInTheDocument();
    expect(within(row).getByText("http://store.test/moonlit-ceramics")).toBeInTheDocument();
    expect(within(row).getByRole("link", { name: /View store/ })).toHaveAttribute("target", "_blank");
    expect(screen.getByTestId("vendor-count-total")).toHaveTextContent("50,000");
    expect(screen.getByTestId("vendor-count-inactive")).toHaveTextContent("1,000");
    await userEvent.type(screen.getByLabelText("Search vendors"), "moon");
    await waitFor(() => expect(fetchMock.mock.calls.map((c) => String(c[0]))).toContain("/api/admin/vendors?page=1&limit=20&search=moon"));
  });

  it("shows the product's empty text", async () => {
    mockFetch((url) => (url === "/api/config" ? json(config) : json(page([]))));
    renderPage();
    expect(await screen.findByText("No vendors found. Create invite codes to allow artists to join.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Refresh" })).toBeInTheDocument();
  });

  it("shows 'Error Loading Vendors' with the message and 'Try Again'", async () => {
    let fail = true;
    mockFetch((url) => {
      if (url === "/api/config") return json(config);
      return fail ? json({ error: { code: "x", message: "boom" } }, 500, "Internal Server Error") : json(page([moon]));
    });
    renderPage();
    expect(await screen.findByText("Error Loading Vendors")).toBeInTheDocument();
    expect(screen.getByText(/API Error: Internal Server Error/)).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "Try Again" }));
    expect(await screen.findByTestId("vendor-row-moonlit-ceramics")).toBeInTheDocument();
  });

  it("alerts 'Failed to disable vendor: {message}' and 'Failed to delete vendor: {message}'", async () => {
    mockFetch((url, init) => {
      if (url === "/api/config") return json(config);
      if (init?.method === "PATCH" || init?.method === "DELETE") return json({ error: { code: "x", message: "nope" } }, 503, "Service Unavailable");
      return json(page([moon]));
    });
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Disable Moonlit Ceramics" }));
    await userEvent.type(await screen.findByLabelText("Reason (the artist is told it)"), "Test");
    await userEvent.click(await screen.findByRole("button", { name: "Disable Vendor" }));
    expect(await screen.findByText(/^Failed to disable vendor: API Error: Service Unavailable/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Delete Moonlit Ceramics" }));
    await userEvent.click(await screen.findByRole("button", { name: "Delete Vendor & Clerk Account" }));
    expect(await screen.findByText(/^Failed to delete vendor: API Error: Service Unavailable/)).toBeInTheDocument();
  });

  it("updates the row after enabling, without a reload", async () => {
    let active = false;
    mockFetch((url, init) => {
      if (url === "/api/config") return json(config);
      if (init?.method === "PATCH") {
        active = true;
        return json({ ...moon, isActive: true });
      }
      return json(page([{ ...moon, isActive: active }]));
    });
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Enable Moonlit Ceramics" }));
    await userEvent.click(await screen.findByRole("button", { name: "Enable Vendor" }));
    expect(await screen.findByRole("button", { name: "Disable Moonlit Ceramics" })).toBeInTheDocument();
  });
});

describe("VendorsPage for a viewer (read-only)", () => {
  it("shows enable, disable and delete disabled with the reason", async () => {
    mockFetch((url) => (url === "/api/config" ? json(config) : json(page([moon]))));
    const router = createMemoryRouter([{ path: "/vendors", element: <VendorsPage /> }], { initialEntries: ["/vendors"] });
    renderWithQuery(
      <CurrentUserContext.Provider
        value={{ id: "u", email: "support@example.com", name: null, role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false, twoStepEnrolmentDue: false }}
      >
        <RouterProvider router={router} />
      </CurrentUserContext.Provider>,
    );
    const row = await screen.findByTestId("vendor-row-moonlit-ceramics");
    expect(within(row).getByRole("button", { name: "Disable Moonlit Ceramics" })).toBeDisabled();
    expect(within(row).getByRole("button", { name: "Delete Moonlit Ceramics" })).toBeDisabled();
    expect(within(row).getAllByRole("note", { name: READ_ONLY_REASON })).toHaveLength(2);
    expect(within(row).getByRole("link", { name: /View store/ })).toBeInTheDocument();
  });
});
