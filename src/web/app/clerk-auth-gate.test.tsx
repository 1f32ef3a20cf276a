import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import ClerkAuthGate from "./clerk-auth-gate";

/**
 * The Clerk module with Clerk itself stood in for (@clerk/react's provider, form and hooks): what
 * the module asks of Clerk, and what it does with the answers. The real Clerk runs in
 * e2e/clerk-sign-in.spec.ts against the fake Clerk.
 */
const clerk = vi.hoisted(() => ({
  providerProps: null as Record<string, unknown> | null,
  signInProps: null as Record<string, unknown> | null,
  auth: { isLoaded: true, isSignedIn: false, sessionId: null as string | null },
  instance: {
    status: "ready",
    session: null as { getToken: () => Promise<string | null> } | null,
    signOut: async (_options?: unknown) => {},
  },
}));

vi.mock("@clerk/clerk-js/no-rhc", () => ({ Clerk: class FakeClerkJs {} }));
vi.mock("@clerk/ui/no-rhc", () => ({ ui: { __brand: "__clerkUI", version: "test" } }));
vi.mock("@clerk/react", () => ({
  ClerkProvider: (props: Record<string, unknown> & { children: ReactNode }) => {
    clerk.providerProps = props;
    return <>{props.children}</>;
  },
  ClerkFailed: () => null,
  SignIn: (props: Record<string, unknown>) => {
    clerk.signInProps = props;
    return <h1>HKI Global Admin</h1>;
  },
  useAuth: () => clerk.auth,
  useClerk: () => clerk.instance,
}));

const admin: PublicUser = { id: "user_1", email: "curator@gmail.com", name: null, role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const artist: PublicUser = { id: "user_2", email: "artist@example.com", name: null, role: "user", isAdmin: false, staffRole: null, panelAccess: false, canWrite: false, twoStepEnrolmentDue: false };

function api(me: () => Response) {
  return mockFetch((url, init) => {
    if (url === "/api/auth/me") return me();
    if (url === "/api/config") return json({ storefrontUrl: "https://store.example", authProviderName: "Clerk", authProvider: "clerk", clerkPublishableKey: "pk" });
    return json({ error: { code: "not_found", message: `${init?.method} ${url}` } }, 404, "Not Found");
  });
}

const renderGate = () => renderWithQuery(<ClerkAuthGate publishableKey="pk_live_Y2xlcmsuaGtpLnRlc3Qk">{<p>Admin app</p>}</ClerkAuthGate>);

beforeEach(() => {
  clerk.auth = { isLoaded: true, isSignedIn: false, sessionId: null };
  clerk.instance.session = null;
  clerk.instance.signOut = vi.fn(async () => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("ClerkAuthGate", () => {
  it("gives Clerk the bundled JS and UI, the key, telemetry off, the product's titles, and hides social, divider, sign-up and footer", () => {
    api(() => json({ user: admin }));
    renderGate();
    const props = clerk.providerProps!;
    expect(props.publishableKey).toBe("pk_live_Y2xlcmsuaGtpLnRlc3Qk");
    expect(typeof props.Clerk).toBe("function");
    expect(props.ui).toMatchObject({ __brand: "__clerkUI" });
    expect(props.telemetry).toBe(false);
    // Nothing that would make @clerk/react load a script from Clerk's servers.
    expect(Object.keys(props).filter((k) => /clerkJSUrl|clerkUIUrl|__internal/.test(k))).toEqual([]);
    const titles = { title: "HKI Global Admin", subtitle: "Administrator access required" };
    expect(props.localization).toEqual({ signIn: { start: titles, password: titles } });
    const elements = (props.appearance as { elements: Record<string, unknown> }).elements;
    for (const element of ["socialButtonsRoot", "dividerRow", "footerAction", "footer"]) expect(elements[element], element).toEqual({ display: "none" });
    expect(props.afterSignOutUrl).toBe("/");
  });

  it("while Clerk loads: a spinner only", () => {
    clerk.auth = { isLoaded: false, isSignedIn: false, sessionId: null };
    api(() => json({ user: admin }));
    renderGate();
    expect(screen.getByRole("status")).toBeInTheDocument();
    expect(screen.queryByText("Admin app")).not.toBeInTheDocument();
    expect(screen.queryByText("Are you lost?")).not.toBeInTheDocument();
  });

  it("signed out: Clerk's form above 'Are you lost?', returning to the page that was opened", async () => {
    window.history.replaceState(null, "", "/settings?tab=pricing");
    api(() => json({ user: admin }));
    renderGate();
    expect(screen.getByRole("heading", { name: "HKI Global Admin" })).toBeInTheDocument();
    expect(screen.getByText("Are you lost?")).toBeInTheDocument();
    expect(await screen.findByRole("link", { name: "Go to the store" })).toHaveAttribute("href", "https://store.example");
    expect(clerk.signInProps).toMatchObject({ routing: "hash", forceRedirectUrl: "/settings?tab=pricing" });
    window.history.replaceState(null, "", "/");
  });

  it("signed in: the server is asked with Clerk's session token, and an admin gets the app", async () => {
    clerk.auth = { isLoaded: true, isSignedIn: true, sessionId: "sess_1" };
    clerk.instance.session = { getToken: async () => "clerk-jwt" };
    const fetchMock = api(() => json({ user: admin }));
    renderGate();
    expect(await screen.findByText("Admin app")).toBeInTheDocument();
    const meCall = fetchMock.mock.calls.find(([url]) => url === "/api/auth/me");
    expect((meCall?.[1]?.headers as Record<string, string>).Authorization).toBe("Bearer clerk-jwt");
  });

  it("a signed-in user without panel access sees Access Denied; 'Sign out' goes through Clerk back to '/'", async () => {
    clerk.auth = { isLoaded: true, isSignedIn: true, sessionId: "sess_2" };
    clerk.instance.session = { getToken: async () => "clerk-jwt" };
    const fetchMock = api(() => json({ user: artist }));
    renderGate();
    expect(await screen.findByRole("heading", { name: "Access Denied" })).toBeInTheDocument();
    expect(screen.queryByText("Admin app")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect(clerk.instance.signOut).toHaveBeenCalledWith({ redirectUrl: "/" });
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain("/api/auth/sign-out");
  });

  it("a session the server refuses shows no part of the app, and offers to sign out", async () => {
    clerk.auth = { isLoaded: true, isSignedIn: true, sessionId: "sess_3" };
    clerk.instance.session = { getToken: async () => "clerk-jwt" };
    api(() => json({ error: { code: "unauthorized", message: "Invalid or expired token" } }, 401, "Unauthorized"));
    renderGate();
    expect(await screen.findByText("Sign-in failed. Please try again.")).toBeInTheDocument();
    expect(screen.queryByText("Admin app")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect(clerk.instance.signOut).toHaveBeenCalledWith({ redirectUrl: "/" });
  });

  it("a server that cannot answer offers to ask again, not to sign out", async () => {
    clerk.auth = { isLoaded: true, isSignedIn: true, sessionId: "sess_4" };
    clerk.instance.session = { getToken: async () => "clerk-jwt" };
    let answers = 0;
    api(() => {
      answers += 1;
      return answers === 1 ? json({ error: { code: "unavailable", message: "down" } }, 503, "Service Unavailable") : json({ user: admin });
    });
    renderGate();
    expect(await screen.findByText("Sign-in failed. Please try again.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign out" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Admin app")).toBeInTheDocument();
    expect(clerk.instance.signOut).not.toHaveBeenCalled();
  });
});
