import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import { getSessionToken, setSessionToken } from "@web/lib/session";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { AuthGate } from "./auth-gate";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u1", email: "admin@hki.global", name: "Admin", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const plainUser: PublicUser = { id: "u2", email: "user@example.com", name: null, role: "user", isAdmin: false, staffRole: null, panelAccess: false, canWrite: false, twoStepEnrolmentDue: false };
const viewer: PublicUser = {
  id: "u3",
  email: "support@example.com",
  name: "Support",
  role: "viewer",
  isAdmin: false,
  staffRole: "viewer",
  panelAccess: true,
  canWrite: false,
  twoStepEnrolmentDue: false,
};
const { panelAccess: _p, canWrite: _c, ...signedInAdmin } = admin;
const config = { storefrontUrl: "https://store.example", authProviderName: "Local" };

function api(routes: Record<string, () => Response | Promise<Response>>) {
  return mockFetch((url, init) => {
    const key = `${init?.method ?? "GET"} ${url}`;
    const route = routes[key];
    if (!route) return json({ error: { code: "not_found", message: key } }, 404, "Not Found");
    return route();
  });
}

const renderGate = () => renderWithQuery(<AuthGate>{<p>Admin app</p>}</AuthGate>);

describe("AuthGate", () => {
  it("shows a spinner while the session loads", async () => {
    setSessionToken("tok");
    api({ "GET /api/auth/me": () => new Promise<Response>(() => {}), "GET /api/config": () => json(config) });
    renderGate();
    expect(screen.getByRole("status")).toBeInTheDocument();
    expect(screen.queryByText("Admin app")).not.toBeInTheDocument();
  });

  it("shows the sign-in form with the 'Are you lost?' box when signed out", async () => {
    api({ "GET /api/config": () => json(config) });
    renderGate();
    expect(await screen.findByRole("heading", { name: "HKI Global Admin" })).toBeInTheDocument();
    expect(screen.getByText("Administrator access required")).toBeInTheDocument();
    expect(screen.getByLabelText("E-mail")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toHaveAttribute("type", "password");
    expect(screen.getByText("Are you lost?")).toBeInTheDocument();
    expect(await screen.findByRole("link", { name: /store/i })).toHaveAttribute("href", "https://store.example");
  });

  it("signs an admin in and shows the app", async () => {
    api({
      "GET /api/config": () => json(config),
      "POST /api/auth/sign-in": () => json({ token: "new-token", expiresAt: "2099-01-01T00:00:00Z", user: signedInAdmin }),
      // What the user may do comes from /api/auth/me, asked right after signing in.
      "GET /api/auth/me": () => json({ user: admin }),
    });
    renderGate();
    await userEvent.type(await screen.findByLabelText("E-mail"), "admin@hki.global");
    await userEvent.type(screen.getByLabelText("Password"), "secret");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("Admin app")).toBeInTheDocument();
    expect(getSessionToken()).toBe("new-token");
  });

  it("reports wrong credentials", async () => {
    api({
      "GET /api/config": () => json(config),
      "POST /api/auth/sign-in": () => json({ error: { code: "invalid_credentials", message: "x" } }, 401, "Unauthorized"),
    });
    renderGate();
    await userEvent.type(await screen.findByLabelText("E-mail"), "admin@hki.global");
    await userEvent.type(screen.getByLabelText("Password"), "nope");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid e-mail or password.");
    expect(getSessionToken()).toBeNull();
  });

  it("denies a signed-in non-admin with a 'Go to Store' link", async () => {
    setSessionToken("tok");
    api({ "GET /api/auth/me": () => json({ user: plainUser }), "GET /api/config": () => json(config) });
    renderGate();
    expect(await screen.findByRole("heading", { name: "Access Denied" })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to access the admin panel.")).toBeInTheDocument();
    expect(await screen.findByRole("link", { name: "Go to Store" })).toHaveAttribute("href", "https://store.example");
    expect(screen.queryByText("Admin app")).not.toBeInTheDocument();
  });

  it("shows the app to a signed-in admin", async () => {
    setSessionToken("tok");
    api({ "GET /api/auth/me": () => json({ user: admin }), "GET /api/config": () => json(config) });
    renderGate();
    expect(await screen.findByText("Admin app")).toBeInTheDocument();
  });

  it("shows the app to a signed-in viewer (read-only access is still access)", async () => {
    setSessionToken("tok");
    api({ "GET /api/auth/me": () => json({ user: viewer }), "GET /api/config": () => json(config) });
    renderGate();
    expect(await screen.findByText("Admin app")).toBeInTheDocument();
  });

  it("shows the two-step enrolment instead of the app while it is required and missing, and the app once enrolled", async () => {
    setSessionToken("tok");
    let enrolled = false;
    api({
      "GET /api/auth/me": () => json({ user: { ...viewer, twoStepEnrolmentDue: !enrolled } }),
      "GET /api/config": () => json(config),
      "GET /api/auth/two-step": () => json({ enrolled: false, recoveryCodesLeft: 0 }),
      "POST /api/auth/two-step/setup": () => json({ secret: "JBSWY3DPEHPK3PXP", otpauthUri: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP", qrSvg: "<svg/>" }),
      "POST /api/auth/two-step/confirm": () => {
        enrolled = true;
        return json({ recoveryCodes: ["aaaa-bbbb-cccc-dddd"] });
      },
    });
    renderGate();
    expect(await screen.findByRole("heading", { name: "Set up two-step sign-in" })).toBeInTheDocument();
    expect(screen.getByText(/Two-step sign-in is required for all staff/)).toBeInTheDocument();
    expect(screen.queryByText("Admin app")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Set up two-step sign-in" }));
    await userEvent.click(await screen.findByRole("button", { name: "Set up" }));
    await userEvent.type(await screen.findByLabelText("Code from the app"), "123456");
    await userEvent.click(screen.getByRole("button", { name: "Turn on" }));
    await userEvent.click(await screen.findByRole("button", { name: "Done" }));
    expect(await screen.findByText("Admin app")).toBeInTheDocument();
  });

  it("drops a rejected token and shows the sign-in form", async () => {
    setSessionToken("expired");
    api({ "GET /api/auth/me": () => json({ error: { code: "unauthorized", message: "x" } }, 401, "Unauthorized"), "GET /api/config": () => json(config) });
    renderGate();
    expect(await screen.findByRole("heading", { name: "HKI Global Admin" })).toBeInTheDocument();
    expect(getSessionToken()).toBeNull();
  });
});
