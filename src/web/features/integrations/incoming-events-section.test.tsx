import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import { type IncomingEvent, incomingEventSchema, incomingEventsResponseSchema } from "@contract/integrations-inbound";
import { CurrentUserContext } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { IncomingEventsSection } from "./incoming-events-section";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u-me", email: "me@hki.global", name: "Me", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };

const failed: IncomingEvent = {
  id: "0193-failed",
  source: "stripe",
  eventId: "evt_1Reversal",
  type: "transfer.reversed",
  receivedAt: "2026-11-22T12:00:00.000Z",
  outcome: "failed",
  message: "Payout p1 has no transfer recorded yet; tried again once its outcome is settled",
  attempts: 8,
  processedAt: "2026-11-22T12:10:00.000Z",
  retryable: true,
};
const storefront: IncomingEvent = {
  id: "sf_1",
  source: "storefront",
  eventId: "sf_1",
  type: "order.paid",
  receivedAt: "2026-11-22T11:00:00.000Z",
  outcome: "processed",
  message: null,
  attempts: 0,
  processedAt: "2026-11-22T11:00:00.000Z",
  retryable: false,
};
const clerk: IncomingEvent = { ...storefront, id: "0193-clerk", source: "clerk", eventId: "msg_2Deleted", type: "user.deleted", message: "user_2x deleted: nothing to end", attempts: 1 };

const page = (items: IncomingEvent[], nextCursor: string | null = null) => json(incomingEventsResponseSchema.parse({ items, nextCursor }));

function renderSection(path = "/integrations") {
  const router = createMemoryRouter([{ path: "/integrations", element: <IncomingEventsSection /> }], { initialEntries: [path] });
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

describe("IncomingEventsSection", () => {
  it("lists what came in with its source, type, id, time and outcome, and retries a failed one", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch((url, init) => {
      if (init?.method === "POST") return json({ event: incomingEventSchema.parse({ ...failed, outcome: "pending", retryable: false, processedAt: null }) });
      return page([failed, clerk, storefront]);
    });
    renderSection();
    const row = await screen.findByTestId("incoming-evt_1Reversal");
    expect(within(row).getByText("Stripe")).toBeInTheDocument();
    expect(within(row).getByText("transfer.reversed")).toBeInTheDocument();
    expect(within(row).getByText("Failed")).toBeInTheDocument();
    expect(within(row).getByText(/no transfer recorded yet/)).toBeInTheDocument();
    expect(within(row).getByText("8 attempts")).toBeInTheDocument();
    expect(within(screen.getByTestId("incoming-sf_1")).getByText("Storefront")).toBeInTheDocument();
    expect(within(screen.getByTestId("incoming-sf_1")).queryByRole("button", { name: /Retry/ })).toBeNull();
    expect(within(screen.getByTestId("incoming-msg_2Deleted")).getByText("Processed")).toBeInTheDocument();

    await user.click(within(row).getByRole("button", { name: "Retry the Stripe event evt_1Reversal" }));
    expect(await screen.findByText("Stripe event evt_1Reversal queued again")).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(String(post?.[0])).toBe("/api/admin/integrations/incoming-events/0193-failed/retry");
  });

  it("filters by source and outcome through the URL, and pages by the server's cursor", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch((url) => (url.includes("cursor=c2") ? page([storefront]) : page([failed, clerk], "c2")));
    const { router } = renderSection("/integrations?incoming.source=stripe&incoming.outcome=failed");
    await screen.findByTestId("incoming-evt_1Reversal");
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain("source=stripe");
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain("outcome=failed");
    expect(screen.getByLabelText("Source")).toHaveValue("stripe");
    await user.selectOptions(screen.getByLabelText("Outcome"), "all");
    await waitFor(() => expect(router.state.location.search).not.toContain("incoming.outcome"));
    await user.click(screen.getByRole("button", { name: /Next/ }));
    await screen.findByTestId("incoming-sf_1");
    expect(router.state.location.search).toContain("incoming.cursor=c2");
  });

  it("says when nothing came in, when nothing matches, and when the log cannot be loaded", async () => {
    mockFetch(() => page([]));
    const first = renderSection();
    expect(await screen.findByText("Nothing has come in yet.")).toBeInTheDocument();
    first.unmount();
    const filtered = renderSection("/integrations?incoming.outcome=failed");
    expect(await screen.findByText("No incoming event matches these filters.")).toBeInTheDocument();
    filtered.unmount();
    mockFetch(() => json({ error: { code: "unavailable", message: "The database is busy" } }, 503));
    renderSection();
    expect(await screen.findByText(/Failed to load incoming events/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try Again" })).toBeInTheDocument();
  });
});
