import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminVendorRow, AdminVendorsResponse } from "@contract/vendors";
import { CurrentUserContext } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import VendorsPage from "./vendors-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const vendor = (id: string, name: string, isActive = true): AdminVendorRow => ({
  id,
  name,
  owner: "Owner",
  email: `${id}@shop.example`,
  slug: `${id}-store`,
  joinedDate: "2026-05-01T00:00:00.000Z",
  isActive,
  isInternal: false,
  products: 3,
  revenue: 120.5,
});
const rows = [vendor("v1", "Moonlit Ceramics"), vendor("v2", "Harbor Prints"), vendor("v3", "Kiln Works", false)];
const answer = (nextCursor: string | null = null): AdminVendorsResponse => ({
  vendors: rows,
  total: 45,
  totalCapped: false,
  page: 1,
  limit: 20,
  counts: { total: 45, active: 40, inactive: 5, internal: 0, applications: 0 },
  nextCursor,
});
const config = { storefrontUrl: "http://store.test", authProviderName: "Clerk" };

function renderPage(path = "/vendors", viewer = false) {
  const router = createMemoryRouter([{ path: "/vendors", element: <VendorsPage /> }], { initialEntries: [path] });
  const page = (
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>
  );
  renderWithQuery(
    viewer ? (
      <CurrentUserContext.Provider
        value={{ id: "u", email: "support@example.com", name: null, role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false, twoStepEnrolmentDue: false }}
      >
        {page}
      </CurrentUserContext.Provider>
    ) : (
      page
    ),
  );
  return router;
}

const listCalls = (fetchMock: ReturnType<typeof mockFetch>) => fetchMock.mock.calls.map((c) => String(c[0])).filter((u) => u.startsWith("/api/admin/vendors"));

describe("VendorsPage sorting, bulk status and CSV (issue 23)", () => {
  it("sorts on the server from the headers (URL state) and pages by cursor", async () => {
    const fetchMock = mockFetch((url) => (url === "/api/config" ? json(config) : json(answer(url.includes("sort=") ? "c2" : null))));
    const router = renderPage();
    await screen.findByTestId("vendor-row-v1-store");
    await userEvent.click(screen.getByRole("button", { name: /Revenue/ }));
    await waitFor(() => expect(listCalls(fetchMock)).toContain("/api/admin/vendors?sort=revenue&limit=20"));
    expect(router.state.location.search).toBe("?sort=revenue");
    expect(screen.getByRole("columnheader", { name: /Revenue/ })).toHaveAttribute("aria-sort", "ascending");
    await userEvent.click(screen.getByRole("button", { name: /Revenue/ }));
    await waitFor(() => expect(listCalls(fetchMock)).toContain("/api/admin/vendors?sort=-revenue&limit=20"));
    expect(await screen.findByText("45 vendors · page 1 of 3")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(listCalls(fetchMock)).toContain("/api/admin/vendors?sort=-revenue&limit=20&cursor=c2"));
    expect(await screen.findByText("45 vendors · page 2 of 3")).toBeInTheDocument();
  });

  it("selects rows with labelled checkboxes; one confirmation names how many; one call for all", async () => {
    let posted: unknown = null;
    const fetchMock = mockFetch((url, init) => {
      if (url === "/api/config") return json(config);
      if (url === "/api/admin/vendors/bulk-status") {
        posted = JSON.parse(String(init?.body));
        return json({ changed: 2, unchanged: 0 });
      }
      return json(answer());
    });
    renderPage();
    await screen.findByTestId("vendor-row-v1-store");
    await userEvent.click(screen.getByRole("checkbox", { name: "Select Moonlit Ceramics" }));
    // The keyboard reaches and toggles the next box too.
    screen.getByRole("checkbox", { name: "Select Harbor Prints" }).focus();
    await userEvent.keyboard(" ");
    expect(screen.getByText("2 vendors selected")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Disable selected" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByRole("heading", { name: "Disable 2 vendors" })).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Disable 2 vendors" })).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText("Reason (the artist is told it)"), "Season closed");
    await userEvent.click(within(dialog).getByRole("button", { name: "Disable 2 vendors" }));
    expect(await screen.findByText("2 vendors disabled")).toBeInTheDocument();
    expect(posted).toEqual({ ids: ["v1", "v2"], isActive: false, reason: "Season closed" });
    expect(fetchMock.mock.calls.filter((c) => String(c[0]) === "/api/admin/vendors/bulk-status")).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText(/selected$/)).not.toBeInTheDocument());
  });

  it("select all, then Cancel changes nothing", async () => {
    const fetchMock = mockFetch((url) => (url === "/api/config" ? json(config) : json(answer())));
    renderPage();
    await screen.findByTestId("vendor-row-v1-store");
    await userEvent.click(screen.getByRole("checkbox", { name: "Select all rows" }));
    expect(screen.getByText("3 vendors selected")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Enable selected" }));
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Cancel" }));
    expect(fetchMock.mock.calls.some((c) => String(c[0]).includes("bulk-status"))).toBe(false);
  });

  it("exports the list as CSV with the search and status on screen", async () => {
    let body: unknown = null;
    mockFetch((url, init) => {
      if (url === "/api/config") return json(config);
      if (url === "/api/admin/exports") {
        body = JSON.parse(String(init?.body));
        return json({ url: "http://localhost/api/exports/t", expiresAt: "2026-11-22T12:01:00.000Z", filename: "vendors-2026-11-22.csv" }, 201);
      }
      return json(answer());
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    renderPage("/vendors?status=inactive&search=kiln");
    await screen.findByTestId("vendor-row-v1-store");
    await userEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(body).toEqual({ kind: "vendors", filters: { search: "kiln", status: "inactive" } }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    click.mockRestore();
  });

  it("a viewer gets no checkboxes", async () => {
    mockFetch((url) => (url === "/api/config" ? json(config) : json(answer())));
    renderPage("/vendors", true);
    await screen.findByTestId("vendor-row-v1-store");
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
  });
});
