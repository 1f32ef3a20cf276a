import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Route, RouterProvider, Routes, UNSAFE_createMemoryHistory as createMemoryHistory } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SettingsResponse } from "@contract/settings";
import { ApiRequestError } from "@web/lib/api-client";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { CurrentUserContext, READ_ONLY_REASON } from "@web/app/current-user";
import { AppRouter, createAppNavigation } from "@web/app/navigation";
import SettingsPage from "./settings-page";
import { changedValues, fieldErrorOf, valuesOf } from "./settings-form";

afterEach(() => {
  vi.unstubAllGlobals();
});

const at = "2026-11-22T12:00:00.000Z";
function makeSettings(overrides: Partial<Record<keyof SettingsResponse, string>> = {}): SettingsResponse {
  const base: Record<keyof SettingsResponse, string> = {
    monthly_subscription_fee: "29.99",
    platform_fee_percentage: "1.5",
    shipping_handling_fee: "5.00",
    minimum_payout_amount: "25.00",
    dispute_fee_paid_by: "platform",
    invite_code_prefix: "HKI",
    max_products_per_vendor: "100",
    maintenance_mode: "false",
    support_email: "support@hki.global",
    announcement_message: "",
    require_two_step_sign_in: "false",
    artist_approval: "false",
    artist_reason_templates: "Not original work",
    listing_reason_templates: "Infringement",
    listing_review: "off",
    listing_review_first_count: "3",
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).map(([k, value]) => [k, { value, description: `About ${k}`, updatedAt: at, updatedBy: null }])) as SettingsResponse;
}

function renderPage() {
  const router = createAppNavigation(createMemoryHistory({ initialEntries: ["/settings"], v5Compat: true }));
  const ui = (
    <AppRouter navigation={router}>
      <Routes>
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/" element={<p>Home</p>} />
      </Routes>
    </AppRouter>
  );
  return { router, ...renderWithQuery(ui) };
}

describe("settings form helpers", () => {
  it("changedValues lists only keys that differ", () => {
    const loaded = valuesOf(makeSettings());
    expect(changedValues(loaded, { ...loaded })).toEqual({});
    expect(changedValues(loaded, { ...loaded, support_email: "a@b.co", maintenance_mode: "true" })).toEqual({ support_email: "a@b.co", maintenance_mode: "true" });
  });

  it("fieldErrorOf maps a 400's fields to the field", () => {
    const body = JSON.stringify({
      error: { code: "invalid_setting", message: "support_email: must be a valid e-mail address", fields: { support_email: "must be a valid e-mail address" } },
    });
    expect(fieldErrorOf(new ApiRequestError(400, "Bad Request", body))).toEqual({ key: "support_email", message: "must be a valid e-mail address" });
    expect(fieldErrorOf(new ApiRequestError(500, "Internal Server Error", body))).toBeNull();
    expect(fieldErrorOf(new ApiRequestError(400, "Bad Request", "not json"))).toBeNull();
    expect(fieldErrorOf(new Error("x"))).toBeNull();
  });
});

describe("SettingsPage", () => {
  it("shows the groups, tracks dirty state, saves only changed keys, then reloads and clears dirty", async () => {
    let current = makeSettings();
    const puts: unknown[] = [];
    const fetch = mockFetch((url, init) => {
      if (init?.method === "PUT") {
        const body = JSON.parse(String(init.body)) as Record<string, string>;
        puts.push(body);
        current = makeSettings({ ...Object.fromEntries(Object.entries(current).map(([k, v]) => [k, v.value])), ...body });
        return json(current);
      }
      return json(current);
    });
    const user = userEvent.setup();
    renderPage();

    for (const name of ["Pricing", "Configuration", "Communication", "Security"]) expect(await screen.findByRole("group", { name })).toBeInTheDocument();
    const fee = screen.getByLabelText("Platform Fee Percentage (%)");
    expect(fee).toHaveAttribute("step", "0.1");
    expect(screen.getByLabelText("Monthly Subscription Fee ($)")).toHaveAttribute("step", "0.01");
    expect(screen.getByLabelText("Shipping Handling Fee ($)")).toHaveAttribute("step", "0.01");
    expect(screen.getByLabelText("Support Email")).toHaveAttribute("type", "email");
    expect(screen.getByPlaceholderText("Leave empty to hide announcement")).toBeInTheDocument();
    expect(screen.getByText("About platform_fee_percentage")).toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Configuration" })).getByText("OFF")).toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Security" })).getByLabelText("Require two-step sign-in for all staff")).toBeInTheDocument();

    const save = screen.getByRole("button", { name: "Save Changes" });
    const reset = screen.getByRole("button", { name: "Reset" });
    expect(save).toBeDisabled();
    expect(reset).toBeDisabled();
    expect(screen.queryByText("You have unsaved changes")).toBeNull();

    await user.clear(fee);
    await user.type(fee, "2.5");
    expect(screen.getByText("You have unsaved changes")).toBeInTheDocument();
    expect(save).toBeEnabled();

    // Reset restores the loaded values.
    await user.click(reset);
    expect(fee).toHaveValue(1.5);
    expect(save).toBeDisabled();

    await user.clear(fee);
    await user.type(fee, "2.5");
    await user.click(save);
    await waitFor(() => expect(puts).toEqual([{ platform_fee_percentage: "2.5" }]));
    await waitFor(() => expect(screen.queryByText("You have unsaved changes")).toBeNull());
    expect(screen.getByRole("button", { name: "Save Changes" })).toBeDisabled();
    expect(screen.getByLabelText("Platform Fee Percentage (%)")).toHaveValue(2.5);
    // Reloaded after saving.
    const gets = fetch.mock.calls.filter(([, init]) => !init?.method || init.method === "GET");
    expect(gets.length).toBeGreaterThanOrEqual(2);
  }, 20_000);

  it("shows a server validation error next to its field and keeps the edit", async () => {
    mockFetch((_url, init) =>
      init?.method === "PUT"
        ? json({ error: { code: "invalid_setting", message: "support_email: must be a valid e-mail address", fields: { support_email: "must be a valid e-mail address" } } }, 400, "Bad Request")
        : json(makeSettings()),
    );
    const user = userEvent.setup();
    renderPage();
    const email = await screen.findByLabelText("Support Email");
    await user.clear(email);
    await user.type(email, "nope");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    const alert = await screen.findByText("must be a valid e-mail address", { selector: "p" });
    expect(email).toHaveAttribute("aria-describedby", expect.stringContaining(alert.id));
    expect(email).toHaveValue("nope");
    expect(screen.getByText("You have unsaved changes")).toBeInTheDocument();
  }, 20_000);

  it("shows each refused field's own message when several are refused", async () => {
    mockFetch((_url, init) =>
      init?.method === "PUT"
        ? json(
            {
              error: {
                code: "invalid_setting",
                message: "support_email: must be a valid e-mail address",
                fields: { support_email: "must be a valid e-mail address", invite_code_prefix: "must be 2 to 10 letters or digits" },
              },
            },
            400,
            "Bad Request",
          )
        : json(makeSettings()),
    );
    const user = userEvent.setup();
    renderPage();
    const email = await screen.findByLabelText("Support Email");
    const prefix = screen.getByLabelText("Invite Code Prefix");
    await user.clear(email);
    await user.type(email, "nope");
    await user.type(prefix, "!");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    const emailAlert = await screen.findByText("must be a valid e-mail address", { selector: "p" });
    const prefixAlert = screen.getByText("must be 2 to 10 letters or digits", { selector: "p" });
    expect(email).toHaveAttribute("aria-describedby", expect.stringContaining(emailAlert.id));
    expect(prefix).toHaveAttribute("aria-describedby", expect.stringContaining(prefixAlert.id));
    // Editing one field clears its message only.
    await user.type(prefix, "X");
    expect(screen.queryByText("must be 2 to 10 letters or digits", { selector: "p" })).toBeNull();
    expect(screen.getByText("must be a valid e-mail address", { selector: "p" })).toBeInTheDocument();
  }, 20_000);

  it("asks before leaving with unsaved changes", async () => {
    mockFetch(() => json(makeSettings()));
    const user = userEvent.setup();
    const { router } = renderPage();
    const prefix = await screen.findByLabelText("Invite Code Prefix");
    await user.type(prefix, "X");
    router.navigate("/");
    const dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Stay on Page" }));
    expect(router.history.location.pathname).toBe("/settings");
    expect(prefix).toHaveValue("HKIX");
    router.navigate("/");
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Leave Page" }));
    await screen.findByText("Home");
  }, 20_000);
});

describe("SettingsPage for a viewer (read-only)", () => {
  it("shows the settings with the fields and Save disabled, the reason, and a link to the settings' activity", async () => {
    mockFetch(() => json(makeSettings()));
    const router = createMemoryRouter([{ path: "/settings", element: <SettingsPage /> }], { initialEntries: ["/settings"] });
    renderWithQuery(
      <CurrentUserContext.Provider
        value={{ id: "u", email: "support@example.com", name: null, role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false, twoStepEnrolmentDue: false }}
      >
        <RouterProvider router={router} />
      </CurrentUserContext.Provider>,
    );
    expect(await screen.findByLabelText("Support Email")).toBeDisabled();
    expect(screen.getByRole("button", { name: "Save Changes" })).toBeDisabled();
    expect(screen.getByRole("note", { name: READ_ONLY_REASON })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "View activity" })).toHaveAttribute("href", "/admin-users?tab=activity&targetType=settings&targetId=platform");
  });
});
