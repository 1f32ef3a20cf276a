import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminUser, AdminUsersResponse, Invitation, InvitationsResponse } from "@contract/admin-users";
import type { AuditEntry, AuditLogResponse } from "@contract/audit-log";
import type { PublicUser } from "@contract/auth";
import { CurrentUserContext, READ_ONLY_REASON } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import AdminUsersPage from "./admin-users-page";
import { diffRows, shownValue } from "./audit-diff";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u-me", email: "me@hki.global", name: "Me", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const viewerMe: PublicUser = {
  id: "u-v",
  email: "support@example.com",
  name: null,
  role: "viewer",
  isAdmin: false,
  staffRole: "viewer",
  panelAccess: true,
  canWrite: false,
  twoStepEnrolmentDue: false,
};

const staff = (over: Partial<AdminUser>): AdminUser => ({
  id: "u1",
  email: "accountant@example.com",
  name: "Ada Count",
  role: "viewer",
  access: "role",
  lastSignInAt: "2026-11-20T09:30:00.000Z",
  createdAt: "2026-01-01T00:00:00.000Z",
  activeSessions: 2,
  ...over,
});
const usersPage = (users: AdminUser[]): AdminUsersResponse => ({ users, total: users.length, nextCursor: null });
const pending: Invitation = {
  id: "i1",
  email: "new@example.com",
  role: "viewer",
  status: "pending",
  invitedBy: "me@hki.global",
  createdAt: "2026-11-20T00:00:00.000Z",
  expiresAt: "2026-11-27T00:00:00.000Z",
};
const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: "a1",
  createdAt: "2026-11-22T10:00:00.000Z",
  actor: { id: "u-me", email: "me@hki.global", role: "admin" },
  action: "settings.update",
  target: { type: "settings", id: "platform", label: "platform_fee_percentage" },
  before: { platform_fee_percentage: "1.5", announcement_message: "" },
  after: { platform_fee_percentage: "2", announcement_message: "" },
  details: {},
  ipAddress: "203.0.113.7",
  userAgent: "Firefox",
  requestId: "req-1",
  ...over,
});

function renderPage(url: string, user: PublicUser = admin) {
  const router = createMemoryRouter(
    [
      { path: "/admin-users", element: <AdminUsersPage /> },
      { path: "/settings", element: <p>Settings screen</p> },
      { path: "/vendors/:id", element: <p>Vendor screen</p> },
    ],
    { initialEntries: [url] },
  );
  const result = renderWithQuery(
    <CurrentUserContext.Provider value={user}>
      <RouterProvider router={router} />
      <Toaster />
    </CurrentUserContext.Provider>,
  );
  return { ...result, router };
}

describe("AdminUsersPage: Users", () => {
  it("lists staff with role badges, how access was granted and last sign-in; self and domain admins are protected", async () => {
    mockFetch(() =>
      json(
        usersPage([
          staff({}),
          staff({ id: "u-me", email: "me@hki.global", name: null, role: "admin", access: "domain", lastSignInAt: null, activeSessions: 1 }),
          staff({ id: "u3", email: "boss@example.com", name: null, role: "admin", access: "role" }),
        ]),
      ),
    );
    renderPage("/admin-users");
    expect(screen.getByRole("heading", { name: "Admin Users", level: 1 })).toBeInTheDocument();
    const row = await screen.findByTestId("staff-row-accountant@example.com");
    expect(within(row).getByText("Viewer")).toBeInTheDocument();
    expect(within(row).getByText("By role")).toBeInTheDocument();
    expect(within(row).getByRole("button", { name: "Change the role of accountant@example.com" })).toBeEnabled();
    const mine = screen.getByTestId("staff-row-me@hki.global");
    expect(within(mine).getByText("(you)")).toBeInTheDocument();
    expect(within(mine).getByText("By company domain")).toBeInTheDocument();
    expect(within(mine).getByText("Never")).toBeInTheDocument();
    expect(within(mine).getByRole("button", { name: "Remove access of me@hki.global" })).toBeDisabled();
    expect(within(mine).getAllByRole("note", { name: "You cannot change your own access: ask another administrator" })).toHaveLength(2);
    expect(screen.getByText("3 staff members · page 1")).toBeInTheDocument();
  });

  it("offers every role, each saying what it may do, then calls the API with the one chosen", async () => {
    const fetchMock = mockFetch((url, init) => {
      if (init?.method === "PATCH") return json({ user: staff({ role: "finance" }) });
      return json(usersPage([staff({})]));
    });
    renderPage("/admin-users");
    await userEvent.click(await screen.findByRole("button", { name: "Change the role of accountant@example.com" }));
    const dialog = screen.getByRole("dialog", { name: "Change role" });
    const select = within(dialog).getByRole("combobox", { name: "Role" });
    expect(
      within(select)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual([
      "Admin: Everything, including staff, settings and integrations",
      "Finance: Financials and payouts; reads everything else",
      "Support: Artists, products, announcements and the featured artist; reads everything else, no money actions",
      "Viewer: Every screen, read-only",
    ]);
    // The current role is not a change.
    expect(within(dialog).getByRole("button", { name: "Change role" })).toBeDisabled();
    await userEvent.selectOptions(select, "finance");
    await userEvent.click(within(dialog).getByRole("button", { name: "Change role" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u, i]) => u === "/api/admin/users/u1" && i?.method === "PATCH" && i.body === JSON.stringify({ role: "finance" }))).toBe(true));
    expect(await screen.findByText("accountant@example.com is now finance")).toBeInTheDocument();
  });

  it("shows the server's reason when a change is refused", async () => {
    mockFetch((_url, init) => {
      if (init?.method === "DELETE") return json({ error: { code: "conflict", message: "boss@example.com is the last administrator: make someone else an administrator first" } }, 409, "Conflict");
      return json(usersPage([staff({ id: "u3", email: "boss@example.com", role: "admin" })]));
    });
    renderPage("/admin-users");
    await userEvent.click(await screen.findByRole("button", { name: "Remove access of boss@example.com" }));
    expect(within(screen.getByRole("alertdialog")).getByText(/boss@example.com loses access to the admin panel at once/)).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Remove access" }));
    expect(await screen.findByText("Failed to remove access: boss@example.com is the last administrator: make someone else an administrator first")).toBeInTheDocument();
  });

  it("shows every action disabled, with the reason, to a viewer", async () => {
    mockFetch(() => json(usersPage([staff({})])));
    renderPage("/admin-users", viewerMe);
    const row = await screen.findByTestId("staff-row-accountant@example.com");
    for (const name of ["Change the role of accountant@example.com", "Remove access of accountant@example.com", "Sign accountant@example.com out everywhere"]) {
      expect(within(row).getByRole("button", { name })).toBeDisabled();
    }
    expect(within(row).getAllByRole("note", { name: READ_ONLY_REASON })).toHaveLength(3);
  });

  it("shows the empty and failure states", async () => {
    mockFetch(() => json(usersPage([])));
    renderPage("/admin-users?search=nobody");
    expect(await screen.findByText("No staff members match.")).toBeInTheDocument();
  });
});

describe("AdminUsersPage: Invitations", () => {
  it("invites by e-mail and role, shows the link once, and lists pending invitations with resend and revoke", async () => {
    const sent = { id: "i2", email: "jo@example.com", role: "viewer" as const, expiresAt: "2026-11-29T12:00:00.000Z", link: "http://admin.test/accept-invite?token=abc" };
    const fetchMock = mockFetch((url) => {
      if (url === "/api/admin/users/invite") return json({ invitation: sent }, 201, "Created");
      return json({ invitations: [pending] } satisfies InvitationsResponse);
    });
    renderPage("/admin-users?tab=invitations");
    const row = await screen.findByTestId("invitation-row-new@example.com");
    expect(within(row).getByText("Pending")).toBeInTheDocument();
    expect(within(row).getByRole("button", { name: "Copy the link of new@example.com" })).toBeDisabled();

    await userEvent.click(screen.getByRole("button", { name: "Invite" }));
    const dialog = screen.getByRole("dialog", { name: "Invite to the admin panel" });
    await userEvent.type(within(dialog).getByLabelText("E-mail"), "jo@example.com");
    await userEvent.click(within(dialog).getByRole("button", { name: "Send invitation" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u, i]) => u === "/api/admin/users/invite" && i?.body === JSON.stringify({ email: "jo@example.com", role: "viewer" }))).toBe(true));
    const done = await screen.findByRole("dialog", { name: "Invitation sent" });
    expect(within(done).getByLabelText("Invitation link")).toHaveValue(sent.link);
    expect(within(done).getByText(/It is shown only now: use Resend for a new one/)).toBeInTheDocument();
  });

  it("names the field at fault when the server refuses an invitation", async () => {
    mockFetch((url) => {
      if (url === "/api/admin/users/invite")
        return json({ error: { code: "invalid_input", message: "role: x", fields: { role: "addresses at @hki.global are always administrators: invite them as admin" } } }, 400, "Bad Request");
      return json({ invitations: [] });
    });
    renderPage("/admin-users?tab=invitations");
    expect(await screen.findByText("No pending invitations")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Invite" }));
    const dialog = screen.getByRole("dialog", { name: "Invite to the admin panel" });
    await userEvent.type(within(dialog).getByLabelText("E-mail"), "x@hki.global");
    await userEvent.click(within(dialog).getByRole("button", { name: "Send invitation" }));
    expect(await within(dialog).findByText("addresses at @hki.global are always administrators: invite them as admin")).toBeInTheDocument();
  });

  it("confirms a revoke naming the address", async () => {
    const fetchMock = mockFetch((_url, init) => (init?.method === "DELETE" ? new Response(null, { status: 204 }) : json({ invitations: [pending] })));
    renderPage("/admin-users?tab=invitations");
    await userEvent.click(await screen.findByRole("button", { name: "Revoke the invitation of new@example.com" }));
    expect(within(screen.getByRole("alertdialog")).getByText("The link sent to new@example.com stops working at once. You can invite them again later.")).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u, i]) => u === "/api/admin/users/invitations/i1" && i?.method === "DELETE")).toBe(true));
  });
});

describe("AdminUsersPage: Activity", () => {
  it("reads its filters from the URL, shows the diff on demand and links to what it concerned", async () => {
    const fetchMock = mockFetch(() =>
      json({
        entries: [entry({}), entry({ id: "a2", action: "vendor.disable", target: { type: "vendor", id: "v9", label: "Moon Studio" }, before: { isActive: true }, after: { isActive: false } })],
        nextCursor: null,
      } satisfies AuditLogResponse),
    );
    const { router } = renderPage("/admin-users?tab=activity&targetType=vendor&targetId=v9");
    await screen.findAllByTestId("activity-entry");
    expect(fetchMock.mock.calls.map(([u]) => u)).toContain("/api/admin/audit-log?targetType=vendor&targetId=v9&limit=25");
    expect(screen.getByLabelText("Target type")).toHaveValue("vendor");

    const [first] = screen.getAllByTestId("activity-entry");
    await userEvent.click(within(first!).getByRole("button", { name: "Show changes" }));
    const changes = within(first!).getByRole("table", { name: "Changes" });
    const changed = within(changes).getByRole("row", { name: /platform_fee_percentage/ });
    expect(changed).toHaveAttribute("data-changed", "true");
    expect(within(changed).getByText("1.5")).toBeInTheDocument();
    expect(within(changed).getByText("2")).toBeInTheDocument();
    expect(within(changes).getByRole("row", { name: /announcement_message/ })).toHaveAttribute("data-changed", "false");
    expect(within(first!).getByText("req-1")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("link", { name: "Moon Studio" }));
    expect(router.state.location.pathname).toBe("/vendors/v9");
  });

  it("applies and clears filters through the URL, and exports the same filter as CSV", async () => {
    const fetchMock = mockFetch((url) => {
      if (url === "/api/admin/exports") return json({ url: "/api/exports/tok", expiresAt: "2026-11-22T12:01:00.000Z", filename: "audit-log-2026-11-22.csv" }, 201, "Created");
      return json({ entries: [], nextCursor: null });
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    const { router } = renderPage("/admin-users?tab=activity");
    expect(await screen.findByText("No activity yet.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Actor"), "ops@hki.global");
    await userEvent.click(screen.getByRole("button", { name: "Apply filters" }));
    expect(router.state.location.search).toBe("?tab=activity&actor=ops%40hki.global");
    expect(await screen.findByText("No activity matches these filters.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([u, i]) => u === "/api/admin/exports" && i?.body === JSON.stringify({ kind: "audit-log", filters: { actor: "ops@hki.global" } }))).toBe(true),
    );
    await waitFor(() => expect(click).toHaveBeenCalled());
    await userEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    expect(router.state.location.search).toBe("?tab=activity");
    click.mockRestore();
  });

  it("shows 'Error loading activity' with the reason and 'Try Again'", async () => {
    mockFetch(() => json({ error: { code: "invalid_input", message: "from: must be a date (YYYY-MM-DD) or an ISO-8601 time" } }, 400, "Bad Request"));
    renderPage("/admin-users?tab=activity&from=nonsense");
    expect(await screen.findByText("Error loading activity")).toBeInTheDocument();
    expect(screen.getByText("from: must be a date (YYYY-MM-DD) or an ISO-8601 time")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try Again" })).toBeInTheDocument();
  });
});

describe("audit diff", () => {
  it("lines up before and after by field and marks what changed", () => {
    expect(diffRows({ a: 1, b: "x" }, { b: "y", c: null })).toEqual([
      { field: "a", before: 1, after: undefined, changed: true },
      { field: "b", before: "x", after: "y", changed: true },
      { field: "c", before: undefined, after: null, changed: true },
    ]);
    expect(diffRows(null, null)).toEqual([]);
    expect([shownValue(""), shownValue(null), shownValue(true), shownValue("text")]).toEqual(["empty", "none", "true", "text"]);
  });
});
