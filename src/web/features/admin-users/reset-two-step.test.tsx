import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminUser, AdminUsersResponse } from "@contract/admin-users";
import type { PublicUser } from "@contract/auth";
import { CurrentUserContext } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import AdminUsersPage from "./admin-users-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u-me", email: "me@hki.global", name: "Me", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const staff = (over: Partial<AdminUser>): AdminUser => ({
  id: "u1",
  email: "accountant@example.com",
  name: "Ada Count",
  role: "viewer",
  access: "role",
  lastSignInAt: "2026-11-20T09:30:00.000Z",
  createdAt: "2026-01-01T00:00:00.000Z",
  activeSessions: 2,
  twoStep: false,
  ...over,
});
const usersPage = (users: AdminUser[]): AdminUsersResponse => ({ users, total: users.length, nextCursor: null });

function renderPage() {
  const router = createMemoryRouter([{ path: "/admin-users", element: <AdminUsersPage /> }], { initialEntries: ["/admin-users"] });
  return renderWithQuery(
    <CurrentUserContext.Provider value={admin}>
      <RouterProvider router={router} />
      <Toaster />
    </CurrentUserContext.Provider>,
  );
}

describe("AdminUsersPage: resetting two-step sign-in", () => {
  it("offers the reset only for someone who has it, confirms naming what happens, then calls the API", async () => {
    const fetchMock = mockFetch((url, init) => {
      if (init?.method === "POST" && url === "/api/admin/users/u1/two-step/reset") return json({ sessionsEnded: 2 });
      return json(usersPage([staff({ twoStep: true }), staff({ id: "u2", email: "plain@example.com", twoStep: false })]));
    });
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Reset two-step sign-in of accountant@example.com" }));
    expect(screen.queryByRole("button", { name: "Reset two-step sign-in of plain@example.com" })).not.toBeInTheDocument();
    const dialog = screen.getByRole("alertdialog");
    expect(within(dialog).getByText(/Two-step sign-in of accountant@example.com is turned off .* every session of theirs ends now/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Reset two-step sign-in" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u, i]) => u === "/api/admin/users/u1/two-step/reset" && i?.method === "POST")).toBe(true));
    expect(await screen.findByText("Two-step sign-in reset for accountant@example.com")).toBeInTheDocument();
    expect(screen.getByText("2 sessions ended.")).toBeInTheDocument();
  });
});
