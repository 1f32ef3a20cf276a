import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicConfig } from "@contract/auth";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { AccessDenied } from "./auth-gate";
import { ProviderSignOutContext } from "./auth";
import { AuthSwitch } from "./auth-switch";

/** The lazily imported Clerk module, replaced: records whether it was ever loaded and with which key. */
const clerkModule = vi.hoisted(() => ({ loaded: 0 }));
vi.mock("./clerk-auth-gate", () => {
  clerkModule.loaded += 1;
  return {
    default: ({ publishableKey, children }: { publishableKey: string; children: React.ReactNode }) => (
      <div>
        <p>Clerk sign-in with {publishableKey}</p>
        {children}
      </div>
    ),
  };
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const local: PublicConfig = { storefrontUrl: "https://store.example", authProviderName: "Local", authProvider: "local" };
const clerk: PublicConfig = { storefrontUrl: "https://store.example", authProviderName: "Clerk", authProvider: "clerk", clerkPublishableKey: "pk_live_Y2xlcmsuaGtpLnRlc3Qk" };

function serve(config: () => Response | Promise<Response>) {
  return mockFetch((url, init) => {
    if (`${init?.method ?? "GET"} ${url}` === "GET /api/config") return config();
    return json({ error: { code: "not_found", message: url } }, 404, "Not Found");
  });
}

const renderSwitch = () => renderWithQuery(<AuthSwitch>{<p>Admin app</p>}</AuthSwitch>);

describe("AuthSwitch: which sign-in the public config names", () => {
  it("shows nothing of the app while the config is asked for", () => {
    serve(() => new Promise<Response>(() => {}));
    renderSwitch();
    expect(screen.getByRole("status")).toBeInTheDocument();
    expect(screen.queryByLabelText("E-mail")).not.toBeInTheDocument();
    expect(screen.queryByText("Admin app")).not.toBeInTheDocument();
  });

  it("local: the built-in form, and Clerk's module is never loaded", async () => {
    const before = clerkModule.loaded;
    serve(() => json(local));
    renderSwitch();
    expect(await screen.findByLabelText("E-mail")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "HKI Global Admin" })).toBeInTheDocument();
    expect(screen.queryByText(/Clerk sign-in/)).not.toBeInTheDocument();
    expect(clerkModule.loaded).toBe(before);
  });

  it("an answer without the provider (an older server) means the built-in form", async () => {
    serve(() => json({ storefrontUrl: "https://store.example", authProviderName: "Local" }));
    renderSwitch();
    expect(await screen.findByLabelText("E-mail")).toBeInTheDocument();
  });

  it("clerk: Clerk's module with the publishable key, and no built-in form", async () => {
    serve(() => json(clerk));
    renderSwitch();
    expect(await screen.findByText("Clerk sign-in with pk_live_Y2xlcmsuaGtpLnRlc3Qk")).toBeInTheDocument();
    expect(screen.queryByLabelText("E-mail")).not.toBeInTheDocument();
    expect(clerkModule.loaded).toBe(1);
  });

  it("says so when the config cannot be read, and tries again on request", async () => {
    let answers = 0;
    serve(() => {
      answers += 1;
      return answers === 1 ? json({ error: { code: "unavailable", message: "down" } }, 503, "Service Unavailable") : json(local);
    });
    renderSwitch();
    expect(await screen.findByText("Sign-in failed. Please try again.")).toBeInTheDocument();
    expect(screen.queryByLabelText("E-mail")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByLabelText("E-mail")).toBeInTheDocument();
  });
});

describe("signing out under a hosted provider", () => {
  it("uses the provider's sign-out, never the built-in one", async () => {
    const fetchMock = serve(() => json(local));
    const providerSignOut = vi.fn(async () => {});
    renderWithQuery(
      <ProviderSignOutContext.Provider value={providerSignOut}>
        <AccessDenied />
      </ProviderSignOutContext.Provider>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect(providerSignOut).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain("/api/auth/sign-out");
  });
});
