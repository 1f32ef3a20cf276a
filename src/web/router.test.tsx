import { screen, within } from "@testing-library/react";
import { UNSAFE_createMemoryHistory as createMemoryHistory } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import { CurrentUserContext } from "./app/current-user";
import { AppRouter, createAppNavigation } from "./app/navigation";
import { NAV_ITEMS } from "./app/nav-items";
import { json, mockFetch, renderWithQuery } from "./test/render";
import { AppRoutes } from "./router";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u1", email: "admin@hki.global", name: "Admin", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };

function renderAt(path: string) {
  mockFetch(() => json({ storefrontUrl: "https://store.example", authProviderName: "Local" }));
  const navigation = createAppNavigation(createMemoryHistory({ initialEntries: [path], v5Compat: true }));
  renderWithQuery(
    <CurrentUserContext.Provider value={admin}>
      <AppRouter navigation={navigation}>
        <AppRoutes />
      </AppRouter>
    </CurrentUserContext.Provider>,
  );
  return navigation;
}

// Cold lazy imports of real feature screens can take seconds under jsdom on a busy machine.
describe("router", { timeout: 20_000 }, () => {
  it("renders the layout with the 11 navigation entries in the product's order", async () => {
    renderAt("/");
    await screen.findByRole("navigation", { name: "Main" }, { timeout: 10_000 });
    expect(screen.getByText("HKI Global Admin")).toBeInTheDocument();
    expect(screen.getByText("Platform Management Dashboard")).toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Main" });
    const links = within(nav).getAllByRole("link");
    expect(links.map((l) => [l.textContent, l.getAttribute("href")])).toEqual(NAV_ITEMS.map((i) => [i.label, i.path]));
    expect(within(nav).getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
    expect(within(nav).getByRole("link", { name: "Vendors" })).not.toHaveAttribute("aria-current");
  });

  // Screen contents belong to each feature's own tests; here each URL only has to reach a screen
  // inside the layout, with the right navigation entry marked current.
  it.each([
    ["/vendors", "Vendors"],
    ["/vendors/v-1", "Vendors"],
    ["/analytics", "Analytics"],
    ["/financials", "Financials"],
    ["/communications", "Communications"],
    ["/communications/a-1", "Communications"],
    ["/errors", "Error Logs"],
    ["/settings", "Settings"],
    ["/system-debug", "System Debug"],
    ["/test-error", null],
  ])("%s is a route inside the layout (current entry: %s)", async (path, current) => {
    renderAt(path);
    const nav = await screen.findByRole("navigation", { name: "Main" }, { timeout: 10_000 });
    expect(screen.getByRole("main")).not.toBeEmptyDOMElement();
    expect(screen.queryByText("Unexpected Application Error!")).not.toBeInTheDocument();
    const currentLinks = within(nav)
      .getAllByRole("link")
      .filter((l) => l.getAttribute("aria-current") === "page");
    expect(currentLinks.map((l) => l.textContent)).toEqual(current ? [current] : []);
  });

  it("/products is the catalogue, not 'Coming Soon' (docs/product.md §16)", async () => {
    renderAt("/products");
    expect(await screen.findByRole("heading", { name: "Products", level: 1 }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByText("Coming Soon")).not.toBeInTheDocument();
  });

  it("links to the storefront's invite-code manager in a new tab", async () => {
    renderAt("/invite-codes");
    await screen.findByRole("heading", { name: "Invite Codes", level: 1 }, { timeout: 10_000 });
    const link = await within(screen.getByRole("main")).findByRole("link", { name: /invite codes/i });
    expect(link).toHaveAttribute("href", "https://store.example/admin/invite-codes");
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("shows 'Unexpected Application Error!' for an unknown route", async () => {
    renderAt("/no-such-page");
    expect(await screen.findByText("Unexpected Application Error!", {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText("404 Not Found")).toBeInTheDocument();
  });
});
