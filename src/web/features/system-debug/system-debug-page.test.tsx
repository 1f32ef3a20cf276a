import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DebugResponse } from "@contract/system-debug";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import SystemDebugPage from "./system-debug-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const data: DebugResponse = {
  userId: "u-1",
  email: "admin@hki.global",
  isAdmin: true,
  jwtRole: "admin",
  clerkSecretKeyExists: false,
  clerkKeyPrefix: null,
  stripeSecretKeyExists: false,
  stripeKeyPrefix: null,
  stripeWorks: false,
  stripeError: "Stripe secret key not configured",
  stripeCheckedAt: "2026-11-22T12:00:00.000Z",
  authProvider: "local",
  authProviderName: "HKI Global",
  authSecretKeyRequired: false,
  localUserRole: "admin",
  environment: "development",
  apiUrl: "http://127.0.0.1:3000/api",
  database: { kind: "sqlite", label: "SQLite (embedded)" },
  errorLogDrops: { hours: 24, error: 0, warning: 0, info: 0 },
  stripeReconciliation: { last: null, openDifferences: 0, differences: [] },
  checkedAt: "2026-11-22T12:00:00.000Z",
};

describe("SystemDebugPage", () => {
  it("is unknown before data, then shows the status from the problems and every section", async () => {
    const fetch = mockFetch(() => json(data));
    renderWithQuery(<SystemDebugPage />);
    expect(screen.getByTestId("overall-status")).toHaveTextContent("Unknown");
    expect(await screen.findByText("SQLite (embedded)")).toBeInTheDocument();
    expect(screen.getByTestId("overall-status")).toHaveTextContent("Warning");
    const problems = screen.getByRole("list", { name: "Problems" });
    expect(
      within(problems)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["Payment provider secret key is missing", "Payment provider API is not working"]);
    for (const name of ["User Information", "Authentication Provider Configuration", "Payment Provider Integration (Stripe)", "API Configuration"]) {
      expect(screen.getByRole("group", { name })).toBeInTheDocument();
    }
    expect(screen.getByText("Not required (built-in provider)")).toBeInTheDocument();
    expect(screen.getByText("Stripe secret key not configured")).toBeInTheDocument();
    expect(screen.getByLabelText("Raw debug JSON")).toHaveTextContent('"stripeWorks": false');
    expect(screen.getByText(/Last checked:/)).not.toHaveTextContent("never");

    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
  });

  it("is healthy with no problems", async () => {
    mockFetch(() => json({ ...data, stripeSecretKeyExists: true, stripeKeyPrefix: "sk_test", stripeWorks: true, stripeError: null }));
    renderWithQuery(<SystemDebugPage />);
    expect(await screen.findByText("All checks passed.")).toBeInTheDocument();
    expect(screen.getByTestId("overall-status")).toHaveTextContent("Healthy");
    expect(screen.getByText("sk_test…")).toBeInTheDocument();
  });

  it("shows the error-log entries dropped over the last day: none, or how many per level", async () => {
    mockFetch(() => json(data));
    const first = renderWithQuery(<SystemDebugPage />);
    expect(await screen.findByTestId("error-log-drops")).toHaveTextContent("None");
    expect(screen.getByText("Error Log Drops (24 h)")).toBeInTheDocument();
    first.unmount();
    mockFetch(() => json({ ...data, errorLogDrops: { hours: 24, error: 0, warning: 312, info: 2 } }));
    renderWithQuery(<SystemDebugPage />);
    expect(await screen.findByTestId("error-log-drops")).toHaveTextContent("314 errors 0, warnings 312, info 2");
  });

  it("shows the comparison with Stripe: none yet, or the differences a double payment would leave", async () => {
    mockFetch(() => json(data));
    const first = renderWithQuery(<SystemDebugPage />);
    const none = await screen.findByRole("group", { name: "Stripe Reconciliation" });
    expect(within(none).getByTestId("stripe-differences")).toHaveTextContent("No differences");
    expect(none.textContent).toContain("Not compared yet");
    first.unmount();
    mockFetch(() =>
      json({
        ...data,
        stripeReconciliation: {
          last: { startedAt: "2026-11-22T03:00:00.000Z", finishedAt: "2026-11-22T03:00:04.000Z", since: "2026-11-19T03:00:00.000Z", runs: 2, transfers: 41, payouts: 40, differences: 1, error: null },
          openDifferences: 1,
          differences: [
            {
              kind: "unknown_transfer",
              runId: "r1",
              payoutId: "p1",
              vendorId: "v1",
              vendorName: "Ava Atelier",
              destination: "acct_ava",
              stripeTransferId: "tr_twice",
              stripeAmount: 147.75,
              ledgerAmount: null,
              detail: "Stripe made the transfer tr_twice of 147.75 USD to acct_ava that the ledger does not count: payout p1 is recorded as paid by tr_first: the artist was paid twice",
              foundAt: "2026-11-22T03:00:04.000Z",
              lastSeenAt: "2026-11-22T03:00:04.000Z",
            },
          ],
        },
      }),
    );
    renderWithQuery(<SystemDebugPage />);
    const card = await screen.findByRole("group", { name: "Stripe Reconciliation" });
    expect(within(card).getByTestId("stripe-differences")).toHaveTextContent("1 open difference");
    expect(card.textContent).toContain("2 payout runs");
    const row = within(within(card).getByRole("table", { name: "Differences between Stripe and the ledger" })).getAllByRole("row")[1]!;
    expect(row.textContent).toContain("Transfer the ledger does not know");
    expect(row.textContent).toContain("Ava Atelier");
    expect(row.textContent).toContain("tr_twice");
    expect(row.textContent).toContain("$147.75");
    expect(row.textContent).toContain("the artist was paid twice");
  });

  it("shows 'API returned {status}' in an Error card", async () => {
    mockFetch(() => json({ error: { code: "forbidden", message: "Administrator access required" } }, 403, "Forbidden"));
    renderWithQuery(<SystemDebugPage />);
    const card = await screen.findByRole("alert");
    expect(within(card).getByText("Error")).toBeInTheDocument();
    expect(within(card).getByText("API returned 403")).toBeInTheDocument();
    expect(screen.getByTestId("overall-status")).toHaveTextContent("Unknown");
  });

  it("says 'Refreshing…' while it reads again, and the Error card's 'Try Again' reads again", async () => {
    let answers = [json({ error: { code: "internal_error", message: "boom" } }, 500, "Internal Server Error")];
    let release = () => {};
    mockFetch(() => answers.shift() ?? new Promise<Response>((resolve) => (release = () => resolve(json(data)))));
    renderWithQuery(<SystemDebugPage />);
    const card = await screen.findByRole("alert");
    expect(within(card).getByText("API returned 500")).toBeInTheDocument();
    answers = [json(data)];
    await userEvent.click(within(card).getByRole("button", { name: "Try Again" }));
    expect(await screen.findByText("SQLite (embedded)")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByRole("button", { name: "Refreshing…" })).toBeDisabled();
    release();
    expect(await screen.findByRole("button", { name: "Refresh" })).toBeEnabled();
  });

  it("shows a network failure's own message", async () => {
    mockFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    renderWithQuery(<SystemDebugPage />);
    expect(await screen.findByText("Failed to fetch")).toBeInTheDocument();
  });
});
