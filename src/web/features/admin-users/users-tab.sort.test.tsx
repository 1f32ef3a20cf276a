import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminUser, AdminUsersResponse } from "@contract/admin-users";
import type { PublicUser } from "@contract/auth";
import { CurrentUserContext } from "@web/app/current-user";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import AdminUsersPage from "./admin-users-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const me: PublicUser = { id: "u-me", email: "me@hki.global", name: "Me", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const person: AdminUser = { id: "u1", email: "ada@example.com", name: "Ada", role: "viewer", access: "role", lastSignInAt: null, createdAt: "2026-01-01T00:00:00.000Z", activeSessions: 0 };
const answer = (nextCursor: string | null): AdminUsersResponse => ({ users: [person], total: 30, nextCursor });

describe("Users tab order (issue 23)", () => {
  it("sorts by name and by last sign-in on the server, in the URL, paging by cursor", async () => {
    const fetchMock = mockFetch(() => json(answer("N2")));
    const router = createMemoryRouter([{ path: "/admin-users", element: <AdminUsersPage /> }], { initialEntries: ["/admin-users"] });
    renderWithQuery(
      <CurrentUserContext.Provider value={me}>
        <RouterProvider router={router} />
      </CurrentUserContext.Provider>,
    );
    await screen.findByTestId("staff-row-ada@example.com");
    const staffCalls = () => fetchMock.mock.calls.map((c) => String(c[0])).filter((u) => u.startsWith("/api/admin/users?"));
    await userEvent.click(screen.getByRole("button", { name: /User/ }));
    await waitFor(() => expect(staffCalls().at(-1)).toBe("/api/admin/users?limit=25&sort=name"));
    await userEvent.click(screen.getByRole("button", { name: /Last sign-in/ }));
    await userEvent.click(screen.getByRole("button", { name: /Last sign-in/ }));
    await waitFor(() => expect(staffCalls().at(-1)).toBe("/api/admin/users?limit=25&sort=-lastSignIn"));
    expect(router.state.location.search).toContain("sort=-lastSignIn");
    expect(screen.getByRole("columnheader", { name: /Last sign-in/ })).toHaveAttribute("aria-sort", "descending");
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(staffCalls().at(-1)).toBe("/api/admin/users?limit=25&sort=-lastSignIn&cursor=N2"));
  });
});
