import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ErrorListResponse, ErrorLogEntry } from "@contract/error-logs";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { CurrentUserContext, READ_ONLY_REASON } from "@web/app/current-user";
import ErrorLogsPage from "./error-logs-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const entry = (over: Partial<ErrorLogEntry>): ErrorLogEntry => ({
  id: "e1",
  level: "error",
  message: "Database timeout",
  endpoint: "/api/vendors",
  method: "GET",
  status_code: 500,
  user_email: null,
  ip_address: "10.0.0.1",
  user_agent: "Mozilla/5.0",
  stack_trace: "Error: timeout\n    at run (db.ts:1:1)",
  context: '{"query":"stats"}',
  created_at: new Date().toISOString(),
  archived_at: null,
  ...over,
});

const answer = (errors: ErrorLogEntry[], nextCursor: string | null = null): ErrorListResponse => ({
  errors,
  total: 42,
  counts: { all: 42, error: 30, warning: 10, info: 2 },
  nextCursor,
});

function renderPage(url = "/errors") {
  const router = createMemoryRouter([{ path: "/errors", element: <ErrorLogsPage /> }], { initialEntries: [url] });
  const result = renderWithQuery(
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>,
  );
  return { ...result, router };
}

describe("ErrorLogsPage", () => {
  it("shows cards, rows and pages with the server's cursor", async () => {
    const fetchMock = mockFetch((url) => (url.includes("cursor=C2") ? json(answer([entry({ id: "e2", message: "Second page" })])) : json(answer([entry({})], "C2"))));
    renderPage();
    expect(await screen.findByText("Database timeout")).toBeInTheDocument();
    expect(screen.getByTestId("error-count-all")).toHaveTextContent("42");
    expect(screen.getByTestId("error-count-warning")).toHaveTextContent("10");
    expect(screen.getByText("GET")).toBeInTheDocument();
    expect(screen.getByText("Just now")).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain("archived=false");
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(await screen.findByText("Second page")).toBeInTheDocument();
    expect(String(fetchMock.mock.calls.at(-1)?.[0])).toContain("cursor=C2");
    await userEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(await screen.findByText("Database timeout")).toBeInTheDocument();
  });

  it("filters by card into the URL and names the level on Archive All", async () => {
    const fetchMock = mockFetch(() => json(answer([entry({})])));
    const { router } = renderPage();
    await screen.findByText("Database timeout");
    await userEvent.click(screen.getByTestId("error-card-warning"));
    expect(router.state.location.search).toBe("?level=warning");
    expect(screen.getByTestId("error-card-warning")).toHaveAttribute("aria-pressed", "true");
    expect(await screen.findByRole("button", { name: "Archive All Warning" })).toBeInTheDocument();
    await waitFor(() => expect(String(fetchMock.mock.calls.at(-1)?.[0])).toContain("level=warning"));
  });

  it("shows the server's message after archive all and the product's failure texts", async () => {
    let fail = false;
    mockFetch((url, init) => {
      if (init?.method === "POST" && url.endsWith("/archive-all")) {
        return fail ? json({ error: { code: "x", message: "no" } }, 500, "Internal Server Error") : json({ message: "Archived 42 errors", count: 42 });
      }
      if (init?.method === "POST") return json({ error: { code: "x", message: "no" } }, 500, "Internal Server Error");
      return json(answer([entry({})]));
    });
    renderPage();
    await screen.findByText("Database timeout");
    await userEvent.click(screen.getByRole("button", { name: "Archive All" }));
    expect(await screen.findByText("Archived 42 errors")).toBeInTheDocument();
    fail = true;
    await userEvent.click(screen.getByRole("button", { name: "Archive All" }));
    expect(await screen.findByText("Failed to archive errors")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Archive: Database timeout" }));
    expect(await screen.findByText("Failed to archive error")).toBeInTheDocument();
  });

  it("asks before cleanup in the archived view", async () => {
    const fetchMock = mockFetch((url, init) =>
      init?.method === "DELETE" ? json({ message: "Deleted 3 archived errors older than 30 days", count: 3 }) : json(answer([entry({ archived_at: new Date().toISOString() })])),
    );
    renderPage("/errors?archived=true");
    await screen.findByText("Database timeout");
    expect(screen.queryByRole("button", { name: /Archive All/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Archive:/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Cleanup Old Archives" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("This will permanently delete all archived errors older than 30 days. Are you sure?");
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Deleted 3 archived errors older than 30 days")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u, i]) => String(u).endsWith("/cleanup-archived") && i?.method === "DELETE")).toBe(true);
  });

  it("opens details with Anonymous, pretty context and the stack trace; raw context when invalid", async () => {
    mockFetch(() => json(answer([entry({}), entry({ id: "e2", message: "Bad context", context: "{oops", user_email: "a@b.c" })])));
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Database timeout" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("Anonymous");
    expect(dialog).toHaveTextContent("10.0.0.1");
    expect(dialog).toHaveTextContent("Mozilla/5.0");
    expect(within(dialog).getByTestId("error-stack-trace")).toHaveTextContent("at run (db.ts:1:1)");
    expect(within(dialog).getByTestId("error-context").textContent).toBe('{\n  "query": "stats"\n}');
    await userEvent.keyboard("{Escape}");
    await userEvent.click(screen.getByRole("button", { name: "Bad context" }));
    const second = await screen.findByRole("dialog");
    expect(second).toHaveTextContent("a@b.c");
    expect(within(second).getByTestId("error-context").textContent).toBe("{oops");
  });

  it("says 'No error logs found' when empty", async () => {
    mockFetch(() => json({ ...answer([]), total: 0 }));
    renderPage();
    expect(await screen.findByText("No error logs found")).toBeInTheDocument();
  });
});

describe("ErrorLogsPage for a viewer (read-only)", () => {
  it("shows archive and archive all disabled with the reason", async () => {
    mockFetch(() => json(answer([entry({})])));
    const router = createMemoryRouter([{ path: "/errors", element: <ErrorLogsPage /> }], { initialEntries: ["/errors"] });
    renderWithQuery(
      <CurrentUserContext.Provider
        value={{ id: "u", email: "support@example.com", name: null, role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false, twoStepEnrolmentDue: false }}
      >
        <RouterProvider router={router} />
      </CurrentUserContext.Provider>,
    );
    expect(await screen.findByRole("button", { name: "Archive: Database timeout" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Archive All" })).toBeDisabled();
    expect(screen.getAllByRole("note", { name: READ_ONLY_REASON })).toHaveLength(2);
    // Reading stays possible: the details open.
    await userEvent.click(screen.getByRole("button", { name: "Database timeout" }));
    expect(await screen.findByRole("dialog")).toBeInTheDocument();
  });
});
