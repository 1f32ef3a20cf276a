import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BETA_MARKER_KEY } from "@web/lib/beta-marker";
import { getSessionToken } from "@web/lib/session";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import AcceptInvitePage, { INVALID_LINK } from "./accept-invite-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const TOKEN = "t".repeat(43);
const invitation = { email: "jo@example.com", role: "viewer" as const, expiresAt: "2026-11-29T12:00:00.000Z" };

describe("AcceptInvitePage", () => {
  it("shows what the link grants, then signs the invitee in (the link stands in for the beta password)", async () => {
    const fetchMock = mockFetch((url) => {
      if (url === "/api/auth/invitations/check") return json({ invitation });
      return json({ token: "session-token", expiresAt: "2026-11-23T00:00:00.000Z", user: { id: "u9", email: "jo@example.com", name: "Jo", role: "viewer", isAdmin: false } });
    });
    const onAccepted = vi.fn();
    renderWithQuery(<AcceptInvitePage token={TOKEN} onAccepted={onAccepted} />);
    expect(await screen.findByText(/jo@example.com is invited as a viewer \(every screen, read-only\)/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Your name"), "Jo");
    await userEvent.type(screen.getByLabelText("Password"), "a long passphrase");
    await userEvent.type(screen.getByLabelText("Repeat password"), "a long passphrase");
    await userEvent.click(screen.getByRole("button", { name: "Accept invitation" }));
    await waitFor(() => expect(onAccepted).toHaveBeenCalled());
    expect(fetchMock.mock.calls.find(([u]) => u === "/api/auth/invitations/accept")?.[1]?.body).toBe(JSON.stringify({ token: TOKEN, name: "Jo", password: "a long passphrase" }));
    expect(getSessionToken()).toBe("session-token");
    expect(localStorage.getItem(BETA_MARKER_KEY)).toMatch(/^\{"timestamp":\d+\}$/);
  });

  it("gives the server's reason for an expired, used or revoked link, and no form", async () => {
    mockFetch(() => json({ error: { code: "invitation_expired", message: "This invitation expired on 2026-11-29. Ask an administrator to send it again." } }, 410, "Gone"));
    renderWithQuery(<AcceptInvitePage token={TOKEN} />);
    expect(await screen.findByRole("alert")).toHaveTextContent("This invitation expired on 2026-11-29. Ask an administrator to send it again.");
    expect(screen.queryByLabelText("Password")).not.toBeInTheDocument();
    expect(localStorage.getItem(BETA_MARKER_KEY)).toBeNull();
  });

  it("says the link is not valid without a token", async () => {
    mockFetch(() => json({}));
    renderWithQuery(<AcceptInvitePage token="" />);
    expect(await screen.findByRole("alert")).toHaveTextContent(INVALID_LINK);
  });

  it("checks that the passwords match, and shows the server's rule under the field", async () => {
    const fetchMock = mockFetch((url) => {
      if (url === "/api/auth/invitations/check") return json({ invitation });
      return json({ error: { code: "invalid_input", message: "password: must not be your e-mail address", fields: { password: "must not be your e-mail address" } } }, 400, "Bad Request");
    });
    renderWithQuery(<AcceptInvitePage token={TOKEN} onAccepted={vi.fn()} />);
    await userEvent.type(await screen.findByLabelText("Your name"), "Jo");
    await userEvent.type(screen.getByLabelText("Password"), "jo@example.com");
    await userEvent.type(screen.getByLabelText("Repeat password"), "something else");
    await userEvent.click(screen.getByRole("button", { name: "Accept invitation" }));
    expect(screen.getByText("The passwords do not match.")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => u === "/api/auth/invitations/accept")).toBe(false);
    await userEvent.clear(screen.getByLabelText("Repeat password"));
    await userEvent.type(screen.getByLabelText("Repeat password"), "jo@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Accept invitation" }));
    expect(await screen.findByText("Password must not be your e-mail address.")).toBeInTheDocument();
    expect(getSessionToken()).toBeNull();
  });
});
