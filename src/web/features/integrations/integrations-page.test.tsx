import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import { type ApiKey, type ApiKeysResponse, apiKeysResponseSchema, createdApiKeySchema } from "@contract/integrations";
import { CurrentUserContext, READ_ONLY_REASON } from "@web/app/current-user";
import { navItemsFor } from "@web/app/nav-items";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import IntegrationsPage from "./integrations-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u-me", email: "me@hki.global", name: "Me", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const viewer: PublicUser = { id: "u-v", email: "support@example.com", name: null, role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false, twoStepEnrolmentDue: false };

const storefrontKey: ApiKey = {
  id: "k1",
  name: "Storefront (production)",
  scopes: ["events:write"],
  prefix: "hki_sk_AbCd",
  lastFour: "wxyz",
  createdBy: "me@hki.global",
  createdAt: "2026-11-20T09:00:00.000Z",
  lastUsedAt: "2026-11-22T11:59:00.000Z",
  revokedAt: null,
};

function renderPage(user: PublicUser = admin) {
  const router = createMemoryRouter([{ path: "/integrations", element: <IntegrationsPage /> }], { initialEntries: ["/integrations"] });
  return renderWithQuery(
    <CurrentUserContext.Provider value={user}>
      <RouterProvider router={router} />
      <Toaster />
    </CurrentUserContext.Provider>,
  );
}

const list = (items: ApiKey[]) => json(apiKeysResponseSchema.parse({ items } satisfies ApiKeysResponse));

describe("IntegrationsPage: API keys", () => {
  it("lists keys by name with prefix and last four, scopes, who made them and when they were last used", async () => {
    mockFetch(() => list([storefrontKey, { ...storefrontKey, id: "k2", name: "Old storefront", lastUsedAt: null, revokedAt: "2026-11-21T00:00:00.000Z" }]));
    renderPage();
    const row = await screen.findByTestId("api-key-row-Storefront (production)");
    expect(within(row).getByText("hki_sk_AbCd…wxyz")).toBeInTheDocument();
    expect(within(row).getByText("events:write")).toBeInTheDocument();
    expect(within(row).getByText(/by me@hki.global/)).toBeInTheDocument();
    expect(within(row).getByText("Active")).toBeInTheDocument();
    const old = screen.getByTestId("api-key-row-Old storefront");
    expect(within(old).getByText("Never")).toBeInTheDocument();
    expect(within(old).getByText(/Revoked/)).toBeInTheDocument();
    expect(within(old).queryByRole("button", { name: /Revoke/ })).toBeNull();
  });

  it("says so when there is no key, and when the list cannot be loaded", async () => {
    mockFetch(() => list([]));
    const first = renderPage();
    expect(await screen.findByText(/No API keys yet/)).toBeInTheDocument();
    first.unmount();
    mockFetch(() => json({ error: { code: "unavailable", message: "The database is busy" } }, 503));
    renderPage();
    expect(await screen.findByText("Error loading API keys")).toBeInTheDocument();
  });

  it("creates a key with the keyboard: name and scopes, then shows the key once with a copy button and a warning", async () => {
    const user = userEvent.setup();
    const key = `hki_sk_${"A".repeat(43)}`;
    const fetchMock = mockFetch((url, init) => {
      if (init?.method === "POST") return json(createdApiKeySchema.parse({ apiKey: { ...storefrontKey, id: "k9", name: "Shop" }, key }), 201);
      return list([]);
    });
    renderPage();
    await screen.findByText(/No API keys yet/);
    await user.click(screen.getByRole("button", { name: "Create API key" }));
    const dialog = await screen.findByRole("dialog", { name: "Create API key" });
    await user.type(within(dialog).getByLabelText("Name"), "Shop");
    expect(within(dialog).getByRole("checkbox", { name: /events:write/ })).toBeChecked();
    await user.keyboard("{Enter}");
    const shown = await screen.findByRole("dialog", { name: "API key created" });
    expect(within(shown).getByDisplayValue(key)).toBeInTheDocument();
    expect(within(shown).getByRole("button", { name: "Copy key" })).toBeInTheDocument();
    expect(within(shown).getByText(/You won.t see this key again/)).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, i]) => i?.method === "POST")!;
    expect(post[0]).toBe("/api/admin/integrations/api-keys");
    expect(JSON.parse(String(post[1]!.body))).toEqual({ name: "Shop", scopes: ["events:write"] });
    await user.click(within(shown).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByDisplayValue(key)).toBeNull());
  });

  it("shows the server's field errors and keeps the dialog open", async () => {
    const user = userEvent.setup();
    mockFetch((_url, init) => (init?.method === "POST" ? json({ error: { code: "invalid_input", message: "name: bad", fields: { name: "must not contain control characters" } } }, 400) : list([])));
    renderPage();
    await screen.findByText(/No API keys yet/);
    await user.click(screen.getByRole("button", { name: "Create API key" }));
    const dialog = await screen.findByRole("dialog", { name: "Create API key" });
    await user.type(within(dialog).getByLabelText("Name"), "x");
    await user.click(within(dialog).getByRole("button", { name: "Create key" }));
    expect(await within(dialog).findByText("must not contain control characters")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
  });

  it("revokes after a confirmation naming the key", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch((_url, init) => (init?.method === "DELETE" ? json({ apiKey: { ...storefrontKey, revokedAt: "2026-11-22T12:00:00.000Z" } }) : list([storefrontKey])));
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Revoke the API key Storefront (production)" }));
    const confirm = await screen.findByRole("alertdialog", { name: 'Revoke the API key "Storefront (production)"?' });
    expect(within(confirm).getByText(/hki_sk_AbCd…wxyz stops working at once/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole("button", { name: "Revoke key" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u, i]) => u === "/api/admin/integrations/api-keys/k1" && i?.method === "DELETE")).toBe(true));
  });

  it("is read-only for a viewer, and its nav entry is for admins only", async () => {
    mockFetch(() => list([storefrontKey]));
    renderPage(viewer);
    await screen.findByTestId("api-key-row-Storefront (production)");
    expect(screen.getByRole("button", { name: "Create API key" })).toBeDisabled();
    expect(screen.getAllByRole("note", { name: READ_ONLY_REASON }).length).toBeGreaterThan(0);
    expect(navItemsFor("admin").map((i) => i.label)).toContain("Integrations");
    for (const role of ["finance", "support", "viewer"] as const) expect(navItemsFor(role).map((i) => i.label)).not.toContain("Integrations");
  });
});
