import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { VendorDetail } from "@contract/vendors";
import { SETTING_KEY_LIST } from "@contract/settings";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { CurrentUserContext, READ_ONLY_REASON } from "@web/app/current-user";
import VendorDetailPage from "./vendor-detail-page";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const detail = (status: "active" | "suspended"): VendorDetail => ({
  id: "v1",
  name: "Moonlit Ceramics",
  owner: "Ava Stone",
  email: "ava@moonlit.example",
  slug: "moonlit-ceramics",
  status,
  isInternal: false,
  joinedDate: "2026-05-01T00:00:00.000Z",
  stats: { totalProducts: 3, revenue: 1234.5, totalSales: 7, avgOrderValue: 176.36, conversionRate: 2.5, lastSaleDate: null },
  customization: { theme: "minimal", primaryColor: "#112233", secondaryColor: "#445566", about: "Clay things", customCSS: ".a{}", customHTML: "<p>Hi</p>" },
  artistStatus: status === "active" ? "active" : "inactive",
  statusReason: status === "active" ? null : "Orders not shipped",
  statusHistory:
    status === "active"
      ? []
      : [{ id: "h1", action: "disable", fromStatus: "active", toStatus: "inactive", reason: "Orders not shipped", actorEmail: "ops@hki.global", createdAt: "2026-11-20T10:00:00.000Z" }],
  application: null,
  appliedAt: null,
  trusted: false,
  takedowns: 2,
});

/** Every setting as the server answers (the answer is checked against its schema), with the artist reason templates. */
const settingsAnswer = Object.fromEntries(
  SETTING_KEY_LIST.map((key) => [
    key,
    { value: key === "artist_reason_templates" ? "Orders not shipped\nNot original work" : "", description: "", updatedAt: "2026-11-01T00:00:00.000Z", updatedBy: null },
  ]),
);

const renderAt = (path: string) => {
  const router = createMemoryRouter([{ path: "/vendors/:vendorId", element: <VendorDetailPage /> }], { initialEntries: [path] });
  renderWithQuery(<RouterProvider router={router} />);
  return router;
};

describe("VendorDetailPage", () => {
  it("shows the overview with 'Never' for a vendor without sales", async () => {
    mockFetch(() => json(detail("active")));
    renderAt("/vendors/v1");
    expect(await screen.findByRole("heading", { name: "Moonlit Ceramics" })).toBeInTheDocument();
    expect(screen.getByText("$1,234.50")).toBeInTheDocument();
    expect(screen.getByText("2.50%")).toBeInTheDocument();
    expect(screen.getByText("Never")).toBeInTheDocument();
  });

  it("suspends with isActive false and the reason chosen from a template, and a suspended vendor reactivates with isActive true", async () => {
    let status: "active" | "suspended" = "active";
    const fetchMock = mockFetch((url, init) => {
      if (url === "/api/admin/settings") return json(settingsAnswer);
      if (init?.method === "PATCH") {
        status = (JSON.parse(String(init.body)) as { isActive: boolean }).isActive ? "active" : "suspended";
        const d = detail(status);
        return json({ id: d.id, name: d.name, owner: d.owner, email: d.email, slug: d.slug, joinedDate: d.joinedDate, isActive: status === "active", isInternal: d.isInternal });
      }
      return json(detail(status));
    });
    const router = renderAt("/vendors/v1?tab=settings");
    await userEvent.click(await screen.findByRole("button", { name: "Suspend Vendor" }));
    const dialog = await screen.findByRole("alertdialog");
    // The reason is required: the confirm waits for it.
    expect(within(dialog).getByRole("button", { name: "Suspend Vendor" })).toBeDisabled();
    await userEvent.click(await within(dialog).findByRole("button", { name: "Orders not shipped" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Suspend Vendor" }));
    await waitFor(() => expect(fetchMock.mock.calls.find((c) => c[1]?.method === "PATCH")?.[1]?.body).toBe(JSON.stringify({ isActive: false, reason: "Orders not shipped" })));
    expect(await screen.findByRole("button", { name: "Reactivate Vendor" })).toBeInTheDocument();
    expect(screen.getByText("Reason: Orders not shipped")).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Status history" })).toHaveTextContent("ops@hki.global");
    expect(screen.getByText("2")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Activate Vendor" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Reactivate Vendor" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Reactivate Vendor" })).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.filter((c) => c[1]?.method === "PATCH").at(-1)?.[1]?.body).toBe(JSON.stringify({ isActive: true }));
    expect(router.state.location.search).toBe("?tab=settings");
  });

  it("shows the payout account, refreshes it from Stripe, and the vendor's balance and last payouts", async () => {
    const payouts = (status: "active" | "restricted") => ({
      account: {
        vendorId: "v1",
        stripeAccountId: "acct_moonlit",
        status,
        chargesEnabled: status === "active",
        payoutsEnabled: status === "active",
        requirements: status === "active" ? null : { currentlyDue: ["external_account"], pastDue: ["external_account"], disabledReason: "requirements.past_due" },
        checkedAt: "2026-11-30T10:00:00.000Z",
      },
      money: { earned: 300, paidOut: 200, inFlight: 0, balance: 100, lastPayoutAt: "2026-11-01T10:00:00.000Z" },
      recentPayouts: [
        {
          id: "p1",
          vendorId: "v1",
          vendorName: "Moonlit Ceramics",
          amount: 200,
          currency: "usd",
          status: "paid",
          stripeTransferId: "tr_1",
          failureReason: null,
          runId: "r1",
          createdAt: "2026-11-01T09:00:00.000Z",
          paidAt: "2026-11-01T10:00:00.000Z",
          checkedAt: null,
        },
      ],
    });
    const fetchMock = mockFetch((url, init) => {
      if (url === "/api/admin/vendors/v1/payout-account/refresh" && init?.method === "POST") return json(payouts("restricted"));
      if (url === "/api/admin/vendors/v1/payout-account") return json(payouts("active"));
      return json(detail("active"));
    });
    renderAt("/vendors/v1?tab=payouts");
    expect(await screen.findByText("acct_moonlit")).toBeInTheDocument();
    expect(screen.getByText("$100.00")).toBeInTheDocument();
    expect(screen.getByText("tr_1")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Refresh from Stripe" }));
    expect(await screen.findByText("Restricted")).toBeInTheDocument();
    expect(screen.getByText("Stripe still needs: external_account")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some((c) => c[0] === "/api/admin/vendors/v1/payout-account/refresh" && c[1]?.method === "POST")).toBe(true);
  });

  it("renders custom HTML only in a sandboxed frame", async () => {
    mockFetch(() => json(detail("active")));
    renderAt("/vendors/v1?tab=customization");
    const frame = await screen.findByTitle("Custom HTML preview");
    expect(frame).toHaveAttribute("sandbox", "");
    expect(screen.getByText(/Sanitized against XSS/)).toBeInTheDocument();
  });

  it("says 'Vendor not found' when loading fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    mockFetch(() => json({ error: { code: "not_found", message: "Vendor not found" } }, 404, "Not Found"));
    renderAt("/vendors/nope");
    expect(await screen.findByText("Vendor not found")).toBeInTheDocument();
  });
});

describe("VendorDetailPage for a viewer (read-only)", () => {
  it("shows the status actions disabled with the reason, and links to the vendor's activity", async () => {
    mockFetch(() => json(detail("suspended")));
    const router = createMemoryRouter([{ path: "/vendors/:vendorId", element: <VendorDetailPage /> }], { initialEntries: ["/vendors/v1?tab=settings"] });
    renderWithQuery(
      <CurrentUserContext.Provider
        value={{ id: "u", email: "support@example.com", name: null, role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false, twoStepEnrolmentDue: false }}
      >
        <RouterProvider router={router} />
      </CurrentUserContext.Provider>,
    );
    expect(await screen.findByRole("button", { name: "Reactivate Vendor" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Activate Vendor" })).toBeDisabled();
    // The two status actions and 'Mark trusted' (docs/product.md §20.4).
    expect(screen.getByRole("button", { name: "Mark trusted" })).toBeDisabled();
    expect(screen.getAllByRole("note", { name: READ_ONLY_REASON })).toHaveLength(3);
    expect(screen.getByRole("link", { name: "View activity" })).toHaveAttribute("href", "/admin-users?tab=activity&targetType=vendor&targetId=v1");
  });
});
