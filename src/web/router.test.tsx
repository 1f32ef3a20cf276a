import { screen, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import { CurrentUserContext } from "./app/current-user";
import { NAV_ITEMS } from "./app/nav-items";
import { json, mockFetch, renderWithQuery } from "./test/render";
import { routes } from "./router";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u1", email: "admin@hki.global", name: "Admin", role: "admin", isAdmin: true };

function renderAt(path: string) {
  mockFetch(() => json({ storefrontUrl: "https://store.example", authProviderName: "Local" }));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  renderWithQuery(
    <CurrentUserContext.Provider value={admin}>
      <RouterProvider router={router} />
    </CurrentUserContext.Provider>,
  );
  return router;
}

describe("router", () => {
  it("renders the layout with the 11 navigation entries in the spec's order", async () => {
    renderAt("/");
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeInTheDocument();
    expect(screen.getByText("HKI Global Admin")).toBeInTheDocument();
    expect(screen.getByText("Platform Management Dashboard")).toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Main" });
    const links = within(nav).getAllByRole("link");
    expect(links.map((l) => [l.textContent, l.getAttribute("href")])).toEqual(NAV_ITEMS.map((i) => [i.label, i.path]));
    expect(within(nav).getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
    expect(within(nav).getByRole("link", { name: "Vendors" })).not.toHaveAttribute("aria-current");
  });

  it.each([
    ["/vendors", "Vendors"],
    ["/vendors/v-1", "Vendor"],
    ["/analytics", "Analytics"],
    ["/errors", "Error Logs"],
    ["/settings", "Settings"],
    ["/system-debug", "System Debug"],
    ["/test-error", "Test Error"],
  ])("%s shows %s", async (path, heading) => {
    renderAt(path);
    expect(await screen.findByRole("heading", { name: heading, level: 1 })).toBeInTheDocument();
  });

  it.each(["/products", "/financials", "/communications", "/admin-users"])("%s says 'Coming Soon'", async (path) => {
    renderAt(path);
    expect(await screen.findByText("Coming Soon")).toBeInTheDocument();
  });

  it("links to the storefront's invite-code manager in a new tab", async () => {
    renderAt("/invite-codes");
    await screen.findByRole("heading", { name: "Invite Codes", level: 1 });
    const link = await within(screen.getByRole("main")).findByRole("link", { name: /invite codes/i });
    expect(link).toHaveAttribute("href", "https://store.example/admin/invite-codes");
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("shows 'Unexpected Application Error!' for an unknown route", async () => {
    renderAt("/no-such-page");
    expect(await screen.findByText("Unexpected Application Error!")).toBeInTheDocument();
    expect(screen.getByText("404 Not Found")).toBeInTheDocument();
  });
});
