import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import {
  type WebhookDelivery,
  type WebhookEndpoint,
  webhookDeliveriesResponseSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEndpointsResponseSchema,
  webhookEndpointWithSecretSchema,
} from "@contract/integrations-webhooks";
import { CurrentUserContext } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { WebhooksSection } from "./webhooks-section";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u-me", email: "me@hki.global", name: "Me", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const SECRET = `whsec_${"A".repeat(43)}=`;

const endpoint: WebhookEndpoint = webhookEndpointSchema.parse({
  id: "wh-1",
  url: "https://shop.example.com/webhooks/hki",
  description: "Storefront (production)",
  events: ["artist.status_changed", "product.status_changed"],
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  failingSince: "2026-11-22T10:00:00.000Z",
  lastSuccessAt: "2026-11-21T09:00:00.000Z",
  previousSecretExpiresAt: null,
  createdBy: "me@hki.global",
  createdAt: "2026-11-20T12:00:00.000Z",
  updatedAt: "2026-11-20T12:00:00.000Z",
});
const gone: WebhookEndpoint = {
  ...endpoint,
  id: "wh-2",
  url: "https://old.example.com/hook",
  description: null,
  enabled: false,
  disabledReason: "gone",
  disabledAt: "2026-11-22T11:00:00.000Z",
  failingSince: null,
};
const failedDelivery: WebhookDelivery = webhookDeliverySchema.parse({
  id: "d-1",
  eventId: "evt-1",
  eventType: "artist.status_changed",
  status: "pending",
  attempts: 3,
  lastAttemptAt: "2026-11-22T12:00:00.000Z",
  lastStatusCode: 503,
  lastDurationMs: 1234,
  lastError: "Answered 503",
  lastResponseBody: "down for maintenance",
  nextAttemptAt: "2026-11-22T12:10:00.000Z",
  deliveredAt: null,
  createdAt: "2026-11-22T11:58:00.000Z",
});

function renderSection(path = "/integrations") {
  const router = createMemoryRouter([{ path: "/integrations", element: <WebhooksSection /> }], { initialEntries: [path] });
  return {
    router,
    ...renderWithQuery(
      <CurrentUserContext.Provider value={admin}>
        <RouterProvider router={router} />
        <Toaster />
      </CurrentUserContext.Provider>,
    ),
  };
}

describe("WebhooksSection", () => {
  it("lists endpoints with their events, status (and why disabled), failing since and last success; empty and error states", async () => {
    mockFetch(() => json(webhookEndpointsResponseSchema.parse({ items: [endpoint, gone] })));
    renderSection();
    const row = await screen.findByTestId(`webhook-row-${endpoint.url}`);
    expect(within(row).getByText("Storefront (production)")).toBeInTheDocument();
    expect(within(row).getByText("2 event types")).toBeInTheDocument();
    expect(within(row).getByText("Enabled")).toBeInTheDocument();
    expect(within(row).getByText(/^Failing since/)).toBeInTheDocument();
    expect(within(screen.getByTestId(`webhook-row-${gone.url}`)).getByText("Disabled: the receiver answered 410 Gone")).toBeInTheDocument();
    expect(within(screen.getByTestId(`webhook-row-${gone.url}`)).getByRole("button", { name: `Enable ${gone.url}` })).toBeInTheDocument();
  });

  it("says so when there is no endpoint, and when the list cannot be read", async () => {
    mockFetch(() => json(webhookEndpointsResponseSchema.parse({ items: [] })));
    renderSection();
    expect(await screen.findByText(/No webhook endpoints yet/)).toBeInTheDocument();
    vi.unstubAllGlobals();
    mockFetch(() => json({ error: { code: "internal", message: "Database unavailable" } }, 503));
    renderSection();
    expect(await screen.findByText("Error loading webhook endpoints")).toBeInTheDocument();
  });

  it("adds an endpoint with the events chosen and shows its secret once; a refused URL is named on its field", async () => {
    const user = userEvent.setup();
    let attempt = 0;
    const fetchMock = mockFetch((_url, init) => {
      if (init?.method === "POST") {
        attempt += 1;
        if (attempt === 1) return json({ error: { code: "invalid_input", message: "Invalid input", fields: { url: "must be https (NODE_ENV=production)" } } }, 400);
        return json(webhookEndpointWithSecretSchema.parse({ endpoint, secret: SECRET }), 201);
      }
      return json(webhookEndpointsResponseSchema.parse({ items: [] }));
    });
    renderSection();
    await user.click(await screen.findByRole("button", { name: "Add endpoint" }));
    const dialog = await screen.findByRole("dialog", { name: "Add webhook endpoint" });
    await user.type(within(dialog).getByLabelText("Endpoint URL"), "http://shop.example.com/webhooks/hki");
    // Every type is ticked at first; keep two.
    for (const type of ["artist.deleted", "featured_artist.changed", "settings.changed", "announcement.published", "announcement.withdrawn", "payout.paid", "payout.failed", "order.refunded"]) {
      await user.click(within(dialog).getByRole("checkbox", { name: new RegExp(`^${type.replace(".", "\\.")}:`) }));
    }
    await user.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    expect(await within(dialog).findByText("must be https (NODE_ENV=production)")).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls.find(([, i]) => i?.method === "POST")![1]!.body))).toEqual({
      url: "http://shop.example.com/webhooks/hki",
      events: ["artist.status_changed", "product.status_changed"],
    });
    await user.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
    const shown = await screen.findByRole("dialog", { name: "Webhook endpoint added" });
    expect(within(shown).getByTestId("webhook-secret")).toHaveValue(SECRET);
    expect(within(shown).getByText(/You won.t see this secret again/)).toBeInTheDocument();
  });

  it("confirms a disable naming what happens, then sends it", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch((_url, init) =>
      init?.method === "PATCH" ? json({ endpoint: { ...endpoint, enabled: false, disabledReason: "admin" } }) : json(webhookEndpointsResponseSchema.parse({ items: [endpoint] })),
    );
    renderSection();
    await user.click(await screen.findByRole("button", { name: `Disable ${endpoint.url}` }));
    const confirm = await screen.findByRole("alertdialog", { name: `Disable ${endpoint.url}?` });
    expect(within(confirm).getByText(/Nothing is sent to it until it is enabled again/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole("button", { name: "Disable endpoint" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => init?.method === "PATCH" && String(url) === "/api/admin/integrations/webhooks/wh-1")).toBe(true));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === "PATCH")!;
    expect(JSON.parse(String(patch[1]!.body))).toEqual({ enabled: false });
  });

  it("opens an endpoint's delivery log: status, attempts, last answer and duration, next attempt; filters by status and resends", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch((url, init) => {
      const path = String(url);
      if (init?.method === "POST") return json({ delivery: { ...failedDelivery, id: "d-2", attempts: 0, lastStatusCode: null, lastDurationMs: null, lastError: null, lastResponseBody: null } }, 201);
      if (path.includes("/deliveries")) return json(webhookDeliveriesResponseSchema.parse({ deliveries: [failedDelivery], nextCursor: null }));
      return json(webhookEndpointsResponseSchema.parse({ items: [endpoint] }));
    });
    const { router } = renderSection();
    await user.click(await screen.findByRole("button", { name: `Deliveries to ${endpoint.url}` }));
    const log = await screen.findByTestId("webhook-deliveries");
    const row = await within(log).findByTestId("delivery-artist.status_changed");
    expect(within(row).getByText("Pending")).toBeInTheDocument();
    expect(within(row).getByText("3")).toBeInTheDocument();
    expect(within(row).getByText("HTTP 503 in 1,234 ms")).toBeInTheDocument();
    expect(within(row).getByText("down for maintenance")).toBeInTheDocument();
    expect(router.state.location.search).toContain("webhook=wh-1");

    await user.selectOptions(within(log).getByLabelText("Status"), "failed");
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes("/deliveries?status=failed"))).toBe(true));

    await user.click(within(row).getByRole("button", { name: "Resend the artist.status_changed event evt-1" }));
    expect(await screen.findByText(`artist.status_changed sent again to ${endpoint.url}`)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url, init]) => init?.method === "POST" && String(url) === "/api/admin/integrations/webhooks/wh-1/deliveries/d-1/resend")).toBe(true);
  });
});
