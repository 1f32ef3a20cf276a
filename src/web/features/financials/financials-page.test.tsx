import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BalancesResponse, FinancialOverview, PayoutRunItem, PayoutsResponse } from "@contract/financials";
import type { PublicUser } from "@contract/auth";
import { CurrentUserContext, READ_ONLY_REASON } from "@web/app/current-user";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import FinancialsPage from "./financials-page";
import { changeText } from "./financials-text";

afterEach(() => {
  vi.unstubAllGlobals();
});

const figures = (from: string, to: string, scale: number) => ({
  from,
  to,
  grossSales: 1000 * scale,
  platformFees: 15 * scale,
  subscriptionRevenue: 29.99,
  refunds: 0,
  vendorEarnings: 985 * scale,
  paidOut: 500,
  outstandingBalance: 485 * scale,
});

const overview: FinancialOverview = {
  period: "30",
  ...figures("2026-11-03", "2026-12-02", 2),
  previous: figures("2026-10-04", "2026-11-02", 1),
  series: [
    { date: "2026-12-01", grossSales: 1200, platformFees: 18, refunds: 0, paidOut: 500 },
    { date: "2026-12-02", grossSales: 800, platformFees: 12, refunds: 0, paidOut: 0 },
  ],
};

const balances: BalancesResponse = {
  balances: [
    { vendorId: "v1", vendorName: "Cleo Ceramics", balance: 295.5, accountStatus: "restricted", lastPayoutAt: null },
    { vendorId: "v2", vendorName: "Ava Atelier", balance: 147.75, accountStatus: "active", lastPayoutAt: "2026-11-01T10:00:00.000Z" },
  ],
  total: 2,
  totalOwed: 443.25,
  nextCursor: null,
};

const payouts: PayoutsResponse = {
  payouts: [
    {
      id: "p1",
      vendorId: "v3",
      vendorName: "Ben Prints",
      amount: 197,
      currency: "usd",
      status: "failed",
      stripeTransferId: null,
      failureReason: "Your destination account needs to have at least one of the following capabilities enabled: transfers",
      runId: "r0",
      createdAt: "2026-11-01T10:00:00.000Z",
      paidAt: null,
      checkedAt: null,
    },
    {
      id: "p2",
      vendorId: "v2",
      vendorName: "Ava Atelier",
      amount: 50,
      currency: "usd",
      status: "paid",
      stripeTransferId: "tr_123",
      failureReason: null,
      runId: "r0",
      createdAt: "2026-11-01T10:00:00.000Z",
      paidAt: "2026-11-01T10:05:00.000Z",
      checkedAt: null,
    },
  ],
  total: 2,
  nextCursor: null,
};

const run = (over: Partial<PayoutRunItem>): PayoutRunItem => ({
  id: "r1",
  status: "queued",
  dryRun: false,
  vendors: 2,
  total: 246.25,
  done: 0,
  failed: 0,
  unknown: 0,
  canceled: 0,
  paidTotal: 0,
  skipped: 1,
  skippedTotal: 295.5,
  held: 0,
  minimum: 25,
  createdAt: "2026-12-02T10:00:00.000Z",
  createdBy: "finance@hki.global",
  startedAt: null,
  finishedAt: null,
  error: null,
  ...over,
});

/** A payout whose transfer Stripe may or may not have made (docs/product.md §15.3). */
const unknownPayout: PayoutsResponse["payouts"][number] = {
  id: "p3",
  vendorId: "v4",
  vendorName: "Dan Drawings",
  amount: 80,
  currency: "usd",
  status: "unknown",
  stripeTransferId: null,
  failureReason: "Outcome unknown: An unknown error occurred while processing your request. (gave up after 6 attempts)",
  runId: "r1",
  createdAt: "2026-12-02T10:00:00.000Z",
  paidAt: null,
  checkedAt: "2026-12-02T10:02:00.000Z",
};

interface Server {
  runs: PayoutRunItem[];
  /** Artists the dry run says are held back. */
  dryHeld?: number;
  /** Payouts listed (the fixture's by default). */
  payouts?: PayoutsResponse["payouts"];
  startStatus?: number;
  calls: Array<{ method: string; url: string; body: unknown }>;
  failOverview?: number;
}

function serve(server: Server) {
  return mockFetch((url, init) => {
    const method = init?.method ?? "GET";
    server.calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url.startsWith("/api/admin/financial/overview")) {
      if (server.failOverview && server.failOverview-- > 0) return json({ error: { code: "internal_error", message: "boom" } }, 500, "Internal Server Error");
      return json({ ...overview, period: new URL(url, "http://x").searchParams.get("period") ?? "30" });
    }
    if (url.startsWith("/api/admin/financial/balances")) return json(balances);
    if (url.startsWith("/api/admin/financial/payouts/runs") && method === "GET") return json({ runs: server.runs.slice(-1), nextCursor: null });
    if (url === "/api/admin/financial/payouts/runs" && method === "POST") {
      const body = JSON.parse(String(init?.body)) as { dryRun?: boolean };
      if (body.dryRun) return json({ run: run({ id: "dry-run", dryRun: true, held: server.dryHeld ?? 0 }) }, 201, "Created");
      if (server.startStatus === 422) return json({ error: { code: "payment_provider_not_configured", message: "Payment provider not configured" } }, 422, "Unprocessable Entity");
      const started = run({});
      server.runs.push(started);
      return json({ run: started }, 201, "Created");
    }
    if (url === "/api/admin/financial/payouts/p1/retry") return json({ payout: { ...payouts.payouts[0]!, status: "pending", failureReason: null } });
    if (url === "/api/admin/financial/payouts/p3/check") {
      return json({
        payout: { ...unknownPayout, status: "paid", stripeTransferId: "tr_found", failureReason: null },
        outcome: "paid",
        message: "Stripe made the transfer tr_found of 80.00 USD: the payout is paid",
      });
    }
    if (url.startsWith("/api/admin/financial/payouts")) return json(server.payouts ? { payouts: server.payouts, total: server.payouts.length, nextCursor: null } : payouts);
    if (url === "/api/admin/exports") return json({ url: "/api/exports/tok", expiresAt: "2026-12-02T10:01:00.000Z", filename: "payouts-2026-12-02.csv" }, 201, "Created");
    return json({ error: { code: "not_found", message: url } }, 404, "Not Found");
  });
}

function renderAt(path: string, user?: PublicUser) {
  const router = createMemoryRouter([{ path: "/financials", element: <FinancialsPage /> }], { initialEntries: [path] });
  return {
    router,
    ...renderWithQuery(
      <CurrentUserContext.Provider value={user ?? null}>
        <RouterProvider router={router} />
        <Toaster />
      </CurrentUserContext.Provider>,
    ),
  };
}

describe("FinancialsPage", () => {
  it("shows the period's cards against the previous period, the balances and the payouts", async () => {
    const server: Server = { runs: [], calls: [] };
    serve(server);
    const { router } = renderAt("/financials");
    const gross = await screen.findByRole("group", { name: "Gross Sales" });
    expect(within(gross).getByText("$2,000.00")).toBeInTheDocument();
    expect(within(gross).getByText("+100.0% vs previous period")).toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Outstanding Balance" })).getByText("$970.00")).toBeInTheDocument();

    const owed = await screen.findByRole("table", { name: "Balances owed" });
    const rows = within(owed).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining("Cleo Ceramics$295.50Restricted"), expect.stringContaining("Ava Atelier$147.75Active")]);
    expect(screen.getByText("2 artists owed $443.25, largest first")).toBeInTheDocument();

    const table = await screen.findByRole("table", { name: "Payouts" });
    expect(within(table).getByText(/capabilities enabled: transfers/)).toBeInTheDocument();
    expect(within(table).getByText("tr_123")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Month to date" }));
    await waitFor(() => expect(router.state.location.search).toBe("?period=mtd"));
    await waitFor(() => expect(server.calls.some((c) => c.url === "/api/admin/financial/overview?period=mtd")).toBe(true));

    await userEvent.click(within(table).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Payout to Ben Prints queued again")).toBeInTheDocument();
    expect(server.calls.some((c) => c.method === "POST" && c.url === "/api/admin/financial/payouts/p1/retry")).toBe(true);
  });

  it("'Process Payouts' names how many artists and how much, then shows the run's progress until it ends", async () => {
    const server: Server = { runs: [], calls: [] };
    serve(server);
    renderAt("/financials");
    await screen.findByRole("group", { name: "Gross Sales" });
    await userEvent.click(screen.getByRole("button", { name: "Process Payouts" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Process Payouts" });
    expect(dialog.textContent).toContain("Pay 2 artists a total of $246.25 through Stripe?");
    expect(dialog.textContent).toContain("1 artist owed $295.50 will be skipped: their payout account is not active.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Pay 2 artists" }));
    const progress = await screen.findByRole("progressbar", { name: "Payout progress" });
    expect(progress).toHaveAttribute("aria-valuemax", "2");
    expect(server.calls.filter((c) => c.method === "POST" && c.url === "/api/admin/financial/payouts/runs").map((c) => c.body)).toEqual([{ dryRun: true }, {}]);

    // The worker pays one, then the run ends.
    server.runs.push(run({ status: "running", done: 1, paidTotal: 147.75 }));
    await waitFor(() => expect(screen.getByTestId("run-progress").textContent).toContain("1 of 2 artists paid"), { timeout: 4000 });
    server.runs.push(run({ status: "completed", done: 2, paidTotal: 246.25, finishedAt: "2026-12-02T10:01:00.000Z" }));
    expect(await screen.findByText("Payout run completed", {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Last payout run" })).toBeInTheDocument();
  });

  it("opens the confirmation on arrival from the dashboard (?confirm=payouts)", async () => {
    serve({ runs: [], calls: [] });
    const { router } = renderAt("/financials?confirm=payouts");
    expect(await screen.findByRole("alertdialog", { name: "Process Payouts" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("");
  });

  it("tells why a run cannot start", async () => {
    serve({ runs: [], calls: [], startStatus: 422 });
    renderAt("/financials");
    await screen.findByRole("group", { name: "Gross Sales" });
    await userEvent.click(screen.getByRole("button", { name: "Process Payouts" }));
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Pay 2 artists" }));
    expect(await screen.findByText("Failed to start payouts: Payment provider not configured")).toBeInTheDocument();
  });

  it("shows a viewer every figure with the payout actions disabled and the reason", async () => {
    const server: Server = { runs: [], calls: [] };
    serve(server);
    renderAt("/financials", { id: "u", email: "books@example.com", name: null, role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false, twoStepEnrolmentDue: false });
    const table = await screen.findByRole("table", { name: "Payouts" });
    await waitFor(() => expect(screen.getByRole("button", { name: "Process Payouts" })).toBeDisabled());
    expect(within(table).getByRole("button", { name: "Retry" })).toBeDisabled();
    expect(screen.getAllByRole("note", { name: READ_ONLY_REASON }).length).toBeGreaterThanOrEqual(2);
    expect(server.calls.every((c) => c.method === "GET")).toBe(true);
  });

  it("shows support the payout actions disabled with who may use them, and finance the same actions enabled", async () => {
    serve({ runs: [], calls: [] });
    const { unmount } = renderAt("/financials", {
      id: "u",
      email: "help@example.com",
      name: null,
      role: "support",
      isAdmin: false,
      staffRole: "support",
      panelAccess: true,
      canWrite: true,
      twoStepEnrolmentDue: false,
    });
    await waitFor(() => expect(screen.getByRole("button", { name: "Process Payouts" })).toBeDisabled());
    expect(screen.getAllByRole("note", { name: "Your role (support) cannot do this: only admins and finance can" }).length).toBeGreaterThanOrEqual(1);
    unmount();
    serve({ runs: [], calls: [] });
    renderAt("/financials", { id: "f", email: "books@example.com", name: null, role: "finance", isAdmin: false, staffRole: "finance", panelAccess: true, canWrite: true, twoStepEnrolmentDue: false });
    await waitFor(() => expect(screen.getByRole("button", { name: "Process Payouts" })).toBeEnabled());
    expect(screen.queryByRole("note", { name: /cannot do this/ })).toBeNull();
  });

  it("shows a payout of unknown outcome with what it means, and 'Check with Stripe' settles it", async () => {
    const server: Server = { runs: [run({ status: "unresolved", done: 1, unknown: 1, finishedAt: "2026-12-02T10:01:00.000Z" })], calls: [], payouts: [unknownPayout, ...payouts.payouts] };
    serve(server);
    renderAt("/financials");
    const card = await screen.findByRole("region", { name: "Last payout run" });
    expect(card.textContent).toContain("Unresolved");
    expect(within(card).getByTestId("run-progress").textContent).toContain("1 unknown");
    expect(within(card).getByRole("status").textContent).toContain("1 payout has an unknown outcome");
    const table = await screen.findByRole("table", { name: "Payouts" });
    const row = within(table).getByText("Dan Drawings").closest("tr")!;
    expect(within(row).getByText("Unknown")).toBeInTheDocument();
    expect(row.textContent).toContain("the transfer may or may not exist");
    expect(row.textContent).toContain("Last answer: Outcome unknown");
    await userEvent.click(within(row).getByRole("button", { name: "Check with Stripe" }));
    expect(await screen.findByText("Payout to Dan Drawings is paid")).toBeInTheDocument();
    expect(server.calls.some((c) => c.method === "POST" && c.url === "/api/admin/financial/payouts/p3/check")).toBe(true);
  });

  it("shows a viewer 'Check with Stripe' disabled with the reason", async () => {
    const server: Server = { runs: [], calls: [], payouts: [unknownPayout] };
    serve(server);
    renderAt("/financials", { id: "u", email: "books@example.com", name: null, role: "viewer", isAdmin: false, staffRole: "viewer", panelAccess: true, canWrite: false, twoStepEnrolmentDue: false });
    const table = await screen.findByRole("table", { name: "Payouts" });
    expect(within(table).getByRole("button", { name: "Check with Stripe" })).toBeDisabled();
    expect(within(table).getByRole("note", { name: READ_ONLY_REASON })).toBeInTheDocument();
    expect(server.calls.every((c) => c.method === "GET")).toBe(true);
  });

  it("names the artists a run leaves out while an earlier payout to them is open", async () => {
    serve({ runs: [], calls: [], dryHeld: 1 });
    renderAt("/financials");
    await screen.findByRole("group", { name: "Gross Sales" });
    await userEvent.click(screen.getByRole("button", { name: "Process Payouts" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Process Payouts" });
    expect(dialog.textContent).toContain("1 artist will be left out: a payout to them is still being sent or its outcome is unknown");
  });

  it("keeps each list's status and page in the URL under its own name, and exports with the filter on screen", async () => {
    const server: Server = { runs: [], calls: [] };
    serve(server);
    const { router } = renderAt("/financials?balances.cursor=B2&payouts.status=failed");
    await screen.findByRole("table", { name: "Payouts" });
    const asked = (path: string, name: string) => server.calls.filter((c) => c.url.startsWith(`${path}?`)).map((c) => new URL(c.url, "http://x").searchParams.get(name));
    expect(asked("/api/admin/financial/balances", "cursor")).toContain("B2");
    expect(asked("/api/admin/financial/payouts", "status")).toContain("failed");
    expect(screen.getByLabelText("Status")).toHaveTextContent("Failed");
    const balancePages = screen.getByRole("navigation", { name: "Balance pages" });
    expect(balancePages).toHaveTextContent("Page 2");
    expect(screen.getByRole("navigation", { name: "Payout pages" })).toHaveTextContent("Page 1");

    // Another status for the payouts leaves the balances' page where it was.
    await userEvent.click(screen.getByLabelText("Status"));
    await userEvent.click(await screen.findByRole("option", { name: "Paid" }));
    await waitFor(() => expect(router.state.location.search).toBe("?balances.cursor=B2&payouts.status=paid"));
    await userEvent.click(within(balancePages).getByRole("button", { name: "Previous" }));
    expect(router.state.location.search).toBe("?payouts.status=paid");

    await userEvent.click(screen.getByRole("button", { name: "Export Payouts CSV" }));
    await waitFor(() => expect(server.calls.find((c) => c.url === "/api/admin/exports")?.body).toEqual({ kind: "payouts", filters: { status: "paid" } }));
  });

  it("shows the load error and retries", async () => {
    serve({ runs: [], calls: [], failOverview: 1 });
    renderAt("/financials");
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Error loading financials")).toBeInTheDocument();
    await userEvent.click(within(alert).getByRole("button", { name: "Try Again" }));
    expect(await screen.findByRole("group", { name: "Gross Sales" })).toBeInTheDocument();
  });
});

describe("financial texts", () => {
  it("signs the change from the previous period, and has none without one", () => {
    expect(changeText(150, 100)).toEqual({ text: "+50.0% vs previous period", up: true });
    expect(changeText(50, 100)).toEqual({ text: "-50.0% vs previous period", up: false });
    expect(changeText(10, 0)).toBeNull();
  });
});
