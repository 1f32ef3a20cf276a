import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import { getSessionToken } from "@web/lib/session";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { AuthGate } from "./auth-gate";

/** The browser's WebAuthn, as @simplewebauthn/browser gives it: each test says what the prompt does. */
const prompt = vi.hoisted(() => ({ answer: vi.fn() }));
vi.mock("@simplewebauthn/browser", () => ({
  browserSupportsWebAuthn: () => true,
  startAuthentication: () => prompt.answer(),
}));

afterEach(() => {
  vi.unstubAllGlobals();
  prompt.answer.mockReset();
});

const admin: PublicUser = { id: "u1", email: "admin@hki.global", name: "Admin", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const { panelAccess: _p, canWrite: _c, ...signedInAdmin } = admin;
const options = { challenge: "Y2hhbGxlbmdl", rpId: "localhost", allowCredentials: [], userVerification: "required" };
const assertion = {
  id: "cred",
  rawId: "cred",
  type: "public-key",
  response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA", userHandle: "dTE" },
  clientExtensionResults: {},
  authenticatorAttachment: "platform",
};

/** The API as the gate meets it; every passkey body sent is kept. */
function api(secondStepFactors: string[]) {
  const sent: Array<{ key: string; body: unknown }> = [];
  mockFetch((url, init) => {
    const key = `${init?.method ?? "GET"} ${url}`;
    if (init?.body) sent.push({ key, body: JSON.parse(String(init.body)) });
    if (key === "GET /api/config") return json({ storefrontUrl: "https://store.example", authProviderName: "Local" });
    if (key === "POST /api/auth/sign-in") return json({ secondStep: { challenge: "challenge-1", expiresAt: "2099-01-01T00:05:00Z", factors: secondStepFactors } });
    if (key === "POST /api/auth/sign-in/passkey/options" || key === "POST /api/auth/sign-in/second-step/passkey/options") return json(options);
    if (key === "POST /api/auth/sign-in/passkey" || key === "POST /api/auth/sign-in/second-step/passkey")
      return json({ token: "passkey-token", expiresAt: "2099-01-01T00:00:00Z", user: signedInAdmin });
    if (key === "GET /api/auth/me") return json({ user: admin });
    return json({ error: { code: "not_found", message: key } }, 404, "Not Found");
  });
  return sent;
}

describe("passkey sign-in", () => {
  it("signs in with a passkey alone, without an e-mail; a cancelled prompt says so and signs nothing in", async () => {
    const sent = api([]);
    renderWithQuery(<AuthGate>{<p>Admin app</p>}</AuthGate>);
    prompt.answer.mockRejectedValueOnce(Object.assign(new Error("The operation either timed out or was not allowed."), { name: "NotAllowedError" }));
    await userEvent.click(await screen.findByRole("button", { name: "Sign in with a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The passkey prompt was cancelled or timed out");
    expect(getSessionToken()).toBeNull();

    prompt.answer.mockResolvedValueOnce(assertion);
    await userEvent.click(screen.getByRole("button", { name: "Sign in with a passkey" }));
    expect(await screen.findByText("Admin app")).toBeInTheDocument();
    expect(getSessionToken()).toBe("passkey-token");
    expect(sent).toEqual([{ key: "POST /api/auth/sign-in/passkey", body: { response: assertion } }]);
  });

  it("a password sign-in of an account with only passkeys asks for a passkey next, with no code field", async () => {
    const sent = api(["passkey"]);
    renderWithQuery(<AuthGate>{<p>Admin app</p>}</AuthGate>);
    await userEvent.type(await screen.findByLabelText("E-mail"), "admin@hki.global");
    await userEvent.type(screen.getByLabelText("Password"), "secret");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("heading", { name: "Two-step sign-in" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Code")).toBeNull();
    expect(screen.queryByRole("button", { name: "Use the authenticator app" })).toBeNull();
    prompt.answer.mockResolvedValueOnce(assertion);
    await userEvent.click(screen.getByRole("button", { name: "Use your passkey" }));
    expect(await screen.findByText("Admin app")).toBeInTheDocument();
    expect(sent.filter((r) => r.key.includes("second-step"))).toEqual([
      { key: "POST /api/auth/sign-in/second-step/passkey/options", body: { challenge: "challenge-1" } },
      { key: "POST /api/auth/sign-in/second-step/passkey", body: { challenge: "challenge-1", response: assertion } },
    ]);
  });
});
