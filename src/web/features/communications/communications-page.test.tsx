import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicUser } from "@contract/auth";
import type { AnnouncementItem, RecipientItem } from "@contract/communications";
import { CurrentUserContext, READ_ONLY_REASON } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import AnnouncementPage from "./announcement-page";
import CommunicationsPage from "./communications-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin: PublicUser = { id: "u1", email: "ops@hki.global", name: "Ops", role: "admin", isAdmin: true, staffRole: "admin", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false };
const viewer: PublicUser = { id: "u2", email: "viewer@example.com", name: "View", role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false, twoStepEnrolmentDue: false };

const announcement = (over: Partial<AnnouncementItem>): AnnouncementItem => ({
  id: "a1",
  title: "Holiday shipping",
  message: "Ship by **Dec 18**",
  html: "<!doctype html><html><body><h1>Holiday shipping</h1><p>Ship by <strong>Dec 18</strong></p></body></html>",
  audience: "inactive",
  vendorIds: null,
  includeInternal: false,
  channels: ["email"],
  status: "sending",
  showUntil: null,
  takenDownAt: null,
  onDashboard: false,
  createdAt: "2026-12-02T10:00:00.000Z",
  createdBy: "ops@hki.global",
  finishedAt: null,
  recipients: 12,
  sent: 3,
  failed: 0,
  pending: 9,
  canceled: 0,
  ...over,
});

const recipient = (over: Partial<RecipientItem>): RecipientItem => ({
  vendorId: "v1",
  vendorName: "Ava Atelier",
  email: "ava@artists.test",
  status: "sent",
  attempts: 1,
  lastError: null,
  sentAt: "2026-12-02T10:00:01.000Z",
  ...over,
});

interface Server {
  calls: Array<{ method: string; url: string; body: unknown }>;
  /** What GET /announcements/a1 answers, in turn (the last one repeats). */
  states: AnnouncementItem[];
  history: AnnouncementItem[];
}

function serve(server: Server) {
  return mockFetch((url, init) => {
    const method = init?.method ?? "GET";
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    server.calls.push({ method, url, body });
    if (url === "/api/admin/communications/preview") {
      const reach = body?.audience === "inactive" ? 12 : 40;
      return json({ html: `<p>${String(body?.message)}</p>`, text: String(body?.message), recipients: reach });
    }
    if (url === "/api/admin/communications/announcement") return json({ announcement: announcement({ status: "queueing", sent: 0, pending: 12 }) }, 201, "Created");
    if (url.startsWith("/api/admin/communications/announcements?")) return json({ announcements: server.history, nextCursor: null });
    if (url.startsWith("/api/admin/communications/announcements/a1/recipients")) {
      const status = new URL(url, "http://x").searchParams.get("status");
      const all = [recipient({}), recipient({ vendorId: "v2", vendorName: "Ben Prints", email: "ben@artists.test", status: "failed", lastError: "550 No such mailbox", sentAt: null })];
      return json({ recipients: status ? all.filter((r) => r.status === status) : all, nextCursor: null });
    }
    if (url === "/api/admin/communications/announcements/a1/retry-failed") return json({ announcement: announcement({ status: "sending", failed: 0, pending: 1 }) });
    if (url === "/api/admin/communications/announcements/a1/dashboard" && method === "DELETE")
      return json({ announcement: announcement({ onDashboard: false, takenDownAt: "2026-12-02T11:00:00.000Z" }) });
    if (url === "/api/admin/communications/announcements/a1") return json({ announcement: server.states.length > 1 ? server.states.shift()! : server.states[0]! });
    return json({ error: { code: "not_found", message: url } }, 404, "Not Found");
  });
}

function renderAt(path: string, user: PublicUser = admin) {
  const router = createMemoryRouter(
    [
      { path: "/communications", element: <CommunicationsPage /> },
      { path: "/communications/:announcementId", element: <AnnouncementPage /> },
    ],
    { initialEntries: [path] },
  );
  renderWithQuery(
    <CurrentUserContext.Provider value={user}>
      <RouterProvider router={router} />
      <Toaster />
    </CurrentUserContext.Provider>,
  );
  return router;
}

describe("Communications (docs/product.md §17.4)", () => {
  it("composes with a live preview and the audience's reach, confirms with the count, sends, then shows the progress to 'Sent'", async () => {
    const server: Server = { calls: [], states: [announcement({ status: "sending", sent: 6, pending: 6 }), announcement({ status: "sent", sent: 12, pending: 0 })], history: [] };
    serve(server);
    const user = userEvent.setup();
    renderAt("/communications?compose=1");
    const title = await screen.findByLabelText("Title");
    await waitFor(() => expect(title).toHaveFocus());
    expect(screen.getByText("No announcements yet.")).toBeInTheDocument();
    await user.type(title, "Holiday shipping");
    await user.type(screen.getByLabelText("Message"), "Ship by Dec 18");
    await user.selectOptions(screen.getByLabelText("Send to"), "inactive");
    expect(await screen.findByText("Reaches 12 artists")).toBeInTheDocument();
    const frame = screen.getByTitle("E-mail preview");
    expect(frame).toHaveAttribute("sandbox", "");
    expect(frame.getAttribute("srcdoc")).toBe("<p>Ship by Dec 18</p>");
    const previews = server.calls.filter((c) => c.url.endsWith("/preview"));
    expect(previews.at(-1)!.body).toEqual({ title: "Holiday shipping", message: "Ship by Dec 18", audience: "inactive", channels: ["email"] });

    await user.click(screen.getByRole("button", { name: "Send" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByText(/Send “Holiday shipping” to 12 artists by e-mail\?/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Send to 12 artists" }));
    await waitFor(() => expect(server.calls.some((c) => c.method === "POST" && c.url === "/api/admin/communications/announcement")).toBe(true));
    const progress = await screen.findByTestId("announcement-progress");
    await waitFor(() => expect(within(progress).getByText("Sent")).toBeInTheDocument(), { timeout: 5000 });
    expect(within(progress).getByText("12 sent, 0 failed, 0 pending of 12 recipients")).toBeInTheDocument();
    expect(within(progress).getByRole("link", { name: "Open “Holiday shipping”" })).toHaveAttribute("href", "/communications/a1");
    // The form starts over.
    expect(screen.getByLabelText("Title")).toHaveValue("");
  });

  it("lists the history with delivery counts", async () => {
    serve({ calls: [], states: [], history: [announcement({ status: "sent", sent: 11, failed: 1, pending: 0 })] });
    renderAt("/communications");
    const table = await screen.findByRole("table", { name: "Announcements" });
    const row = within(table).getByRole("link", { name: "Holiday shipping" }).closest("tr")!;
    expect(within(row).getByText("Inactive artists")).toBeInTheDocument();
    expect(within(row).getByText("Sent")).toBeInTheDocument();
    expect(
      within(row)
        .getAllByRole("cell")
        .map((c) => c.textContent)
        .slice(-3),
    ).toEqual(["11", "1", "0"]);
  });

  it("shows an announcement's recipients by status, retries the failed ones and takes the banner down, each after a confirmation", async () => {
    const server: Server = { calls: [], states: [announcement({ status: "sent", sent: 11, failed: 1, pending: 0, channels: ["email", "dashboard"], onDashboard: true })], history: [] };
    serve(server);
    const user = userEvent.setup();
    const router = renderAt("/communications/a1");
    expect(await screen.findByRole("heading", { name: "Holiday shipping", level: 1 })).toBeInTheDocument();
    const table = await screen.findByRole("table", { name: "Recipients" });
    expect(within(table).getAllByRole("row")).toHaveLength(3);
    await user.selectOptions(screen.getByLabelText("Status"), "failed");
    await waitFor(() => expect(router.state.location.search).toBe("?status=failed"));
    await waitFor(() => expect(within(screen.getByRole("table", { name: "Recipients" })).getAllByRole("row")).toHaveLength(2));
    expect(screen.getByText("550 No such mailbox")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Retry Failed" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Retry 1 mail" }));
    await waitFor(() => expect(server.calls.some((c) => c.method === "POST" && c.url.endsWith("/a1/retry-failed"))).toBe(true));

    await user.click(screen.getByRole("button", { name: "Take Down" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Take Down" }));
    await waitFor(() => expect(server.calls.some((c) => c.method === "DELETE" && c.url.endsWith("/a1/dashboard"))).toBe(true));
  });

  it("lets a viewer see everything and change nothing", async () => {
    serve({ calls: [], states: [announcement({ status: "sending" })], history: [] });
    renderAt("/communications/a1", viewer);
    const cancel = await screen.findByRole("button", { name: "Cancel Sending" });
    expect(cancel).toBeDisabled();
    expect(screen.getByText(/3 sent, 0 failed, 9 pending of 12 recipients/)).toBeInTheDocument();
    expect(screen.getAllByTitle(READ_ONLY_REASON).length).toBeGreaterThan(0);
  });
});
