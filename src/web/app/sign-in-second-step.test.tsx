import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import { getSessionToken } from "@web/lib/session";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { AuthGate } from "./auth-gate";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u1", email: "admin@hki.global", name: "Admin", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const { panelAccess: _p, canWrite: _c, ...signedInAdmin } = admin;
const config = { storefrontUrl: "https://store.example", authProviderName: "Local" };
const secondStepAnswer = { secondStep: { challenge: "challenge-1", expiresAt: "2099-01-01T00:05:00Z", factors: ["totp"] } };

/** The API as the gate meets it; every second-step body is kept for the test to read. */
function api(secondStep: () => Response) {
  const sent: unknown[] = [];
  mockFetch((url, init) => {
    const key = `${init?.method ?? "GET"} ${url}`;
    if (key === "GET /api/config") return json(config);
    if (key === "POST /api/auth/sign-in") return json(secondStepAnswer);
    if (key === "POST /api/auth/sign-in/second-step") {
      sent.push(JSON.parse(String(init?.body)));
      return secondStep();
    }
    if (key === "GET /api/auth/me") return json({ user: admin });
    return json({ error: { code: "not_found", message: key } }, 404, "Not Found");
  });
  return sent;
}

async function enterPassword() {
  renderWithQuery(<AuthGate>{<p>Admin app</p>}</AuthGate>);
  await userEvent.type(await screen.findByLabelText("E-mail"), "admin@hki.global");
  await userEvent.type(screen.getByLabelText("Password"), "secret");
  await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
}

describe("two-step sign-in", () => {
  it("asks for the app's code after a right password, keeps no session until then, and signs in with it", async () => {
    const sent = api(() => json({ token: "new-token", expiresAt: "2099-01-01T00:00:00Z", user: signedInAdmin }));
    await enterPassword();
    expect(await screen.findByRole("heading", { name: "Two-step sign-in" })).toBeInTheDocument();
    expect(getSessionToken()).toBeNull();
    expect(screen.queryByText("Admin app")).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Code"), "123 456");
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("Admin app")).toBeInTheDocument();
    expect(sent).toEqual([{ challenge: "challenge-1", code: "123456" }]);
    expect(getSessionToken()).toBe("new-token");
  });

  it("takes a recovery code instead, and says so when a code is refused", async () => {
    const sent = api(() => json({ error: { code: "unauthorized", message: "x" } }, 401, "Unauthorized"));
    await enterPassword();
    await userEvent.click(await screen.findByRole("button", { name: "Use a recovery code" }));
    await userEvent.type(screen.getByLabelText("Recovery code"), "abcd-efgh-ijkl-mnop");
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That code is not right");
    expect(sent).toEqual([{ challenge: "challenge-1", recoveryCode: "abcd-efgh-ijkl-mnop" }]);
    expect(getSessionToken()).toBeNull();
    // Back to the password form when the user starts again.
    await userEvent.click(screen.getByRole("button", { name: "Start again" }));
    expect(await screen.findByLabelText("Password")).toBeInTheDocument();
  });
});
