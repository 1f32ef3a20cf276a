import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ErrorListResponse, ErrorLogEntry } from "@contract/error-logs";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import ErrorLogsPage from "./error-logs-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const entry = (id: string, message: string): ErrorLogEntry => ({
  id,
  level: "error",
  message,
  endpoint: "/api/x",
  method: "GET",
  status_code: 500,
  user_email: null,
  ip_address: null,
  user_agent: null,
  stack_trace: null,
  context: null,
  created_at: "2026-11-22T11:00:00.000Z",
  archived_at: null,
});
const answer = (errors: ErrorLogEntry[]): ErrorListResponse => ({ errors, total: errors.length, counts: { all: 3, error: 3, warning: 0, info: 0 }, nextCursor: null });
const rows = [entry("e1", "Database timeout"), entry("e2", "Disk full"), entry("e3", "Mail bounced")];

function renderPage(url = "/errors") {
  const router = createMemoryRouter([{ path: "/errors", element: <ErrorLogsPage /> }], { initialEntries: [url] });
  renderWithQuery(
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>,
  );
  return router;
}

describe("ErrorLogsPage order, archive of selected entries and CSV (issue 23)", () => {
  it("orders oldest first on the server, in the URL", async () => {
    const fetchMock = mockFetch(() => json(answer(rows)));
    const router = renderPage();
    await screen.findByText("Database timeout");
    await userEvent.selectOptions(screen.getByLabelText("Order"), "oldest");
    await waitFor(() => expect(String(fetchMock.mock.calls.at(-1)?.[0])).toContain("sort=oldest"));
    expect(router.state.location.search).toBe("?sort=oldest");
    await userEvent.selectOptions(screen.getByLabelText("Order"), "newest");
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("archives the selected entries after one confirmation naming how many (a box selects, it does not open the details)", async () => {
    let posted: unknown = null;
    mockFetch((url, init) => {
      if (url === "/api/admin/errors/archive") {
        posted = JSON.parse(String(init?.body));
        return json({ message: "Archived 2 errors", count: 2 });
      }
      return json(answer(rows));
    });
    renderPage();
    await screen.findByText("Database timeout");
    await userEvent.click(screen.getByRole("checkbox", { name: "Select: Database timeout" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Select: Mail bounced" }));
    // Selecting did not open the details dialog.
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByText("2 errors selected")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Archive selected" }));
    const dialog = await screen.findByRole("alertdialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Archive 2 errors" }));
    expect(await screen.findByText("Archived 2 errors")).toBeInTheDocument();
    expect(posted).toEqual({ ids: ["e1", "e3"] });
  });

  it("selects every entry on the page at once", async () => {
    mockFetch(() => json(answer(rows)));
    renderPage();
    await screen.findByText("Database timeout");
    await userEvent.click(screen.getByRole("checkbox", { name: "Select all on this page" }));
    expect(screen.getByText("3 errors selected")).toBeInTheDocument();
  });

  it("exports the view and level on screen as CSV (the archived view has no boxes)", async () => {
    let body: unknown = null;
    mockFetch((url, init) => {
      if (url === "/api/admin/exports") {
        body = JSON.parse(String(init?.body));
        return json({ url: "http://localhost/api/exports/t", expiresAt: "2026-11-22T12:01:00.000Z", filename: "error-logs.csv" }, 201);
      }
      return json(answer(rows));
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    renderPage("/errors?archived=true&level=warning");
    await screen.findByText("Database timeout");
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(body).toEqual({ kind: "error-logs", filters: { archived: "true", level: "warning" } }));
    click.mockRestore();
  });
});
