import { DisabledReason } from "@web/components/ui/disabled-reason";
import { useWriteAccess } from "@web/app/current-user";
import { apiErrorMessage } from "@web/lib/api-client";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import type { AccountStatusName, FinancialOverview, PayoutRunItem, PayoutStatusName } from "@contract/financials";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  ConfirmDialog,
} from "@web/components/ui/alert-dialog";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Label } from "@web/components/ui/label";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@web/components/ui/select";
import { Spinner } from "@web/components/ui/spinner";
import { StatCard } from "@web/components/ui/stat-card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { toast } from "@web/components/ui/toast";
import { downloadExport } from "@web/lib/download-export";
import { formatCurrency, formatDate, formatDateTime } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import {
  financialKeys,
  isActiveRun,
  useBalances,
  useCancelPayoutRun,
  useCheckPayout,
  useFinancialOverview,
  useLatestRun,
  usePayoutPreview,
  usePayouts,
  useRetryPayout,
  useStartPayoutRun,
} from "./financials-api";
import {
  ACCOUNT_BADGE,
  ACCOUNT_STATUS_LABELS,
  artists,
  changeText,
  PAYOUT_BADGE,
  PAYOUT_STATUS_LABELS,
  PERIOD_OPTIONS,
  periodFromParam,
  runStatusText,
  UNKNOWN_EXPLANATION,
} from "./financials-text";

// Recharts loads only when the chart is drawn (docs/product.md §2.5).
const FinancialsChart = lazy(() => import("./financials-chart"));

/**
 * Financials (docs/product.md §15.4): what the marketplace earned over a period against the one
 * before, what it owes each artist, its payouts, and payout runs with their progress. The period
 * lives in the URL (?period=); ?confirm=payouts (the dashboard's 'Process Payouts') opens the
 * payout confirmation.
 */
export default function FinancialsPage() {
  const [params, setParams] = useSearchParams();
  const period = periodFromParam(params.get("period"));
  const ready = useLoadDelay();
  const overview = useFinancialOverview(period, ready);
  const latestRun = useLatestRun(ready);
  const activeRun = latestRun.data && isActiveRun(latestRun.data) ? latestRun.data : null;

  const queryClient = useQueryClient();
  const preview = usePayoutPreview();
  const start = useStartPayoutRun();
  const { canWrite, reason: readOnly } = useWriteAccess();
  const [previewRun, setPreviewRun] = useState<PayoutRunItem | null>(null);

  const openConfirmation = () => {
    preview.mutate(undefined, {
      onSuccess: (run) => setPreviewRun(run),
      onError: (error) => toast({ title: `Failed to prepare payouts: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  };

  // The dashboard's 'Process Payouts' lands here with ?confirm=payouts: open the confirmation once.
  const wantsConfirmation = params.get("confirm") === "payouts";
  useEffect(() => {
    if (!ready || !wantsConfirmation) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete("confirm");
        return next;
      },
      { replace: true },
    );
    openConfirmation();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per arrival with the flag
  }, [ready, wantsConfirmation]);

  // When a run ends, everything it changed is read again and the outcome is told.
  const seenActive = useRef<string | null>(null);
  useEffect(() => {
    const run = latestRun.data;
    if (!run) return;
    if (isActiveRun(run)) {
      seenActive.current = run.id;
      return;
    }
    if (seenActive.current === run.id) {
      seenActive.current = null;
      void queryClient.invalidateQueries({ queryKey: financialKeys.all });
      toast({
        title:
          run.status === "completed"
            ? "Payout run completed"
            : run.status === "unresolved"
              ? "Payout run ended with unknown outcomes"
              : run.status === "canceled"
                ? "Payout run canceled"
                : "Payout run stopped",
        description: `${artists(run.done)} paid, ${run.failed} failed${run.unknown ? `, ${run.unknown} unknown` : ""}${run.canceled ? `, ${run.canceled} canceled` : ""}.`,
        variant: run.failed > 0 || run.status === "failed" ? "destructive" : run.unknown > 0 ? "default" : "success",
      });
    }
  }, [latestRun.data, queryClient]);

  const confirmRun = () => {
    setPreviewRun(null);
    start.mutate(undefined, {
      onSuccess: (run) => {
        seenActive.current = run.id;
        queryClient.setQueryData(financialKeys.latestRun(), run);
        toast({ title: "Payout run started", description: `Paying ${artists(run.vendors)} ${formatCurrency(run.total)}.` });
      },
      onError: (error) => toast({ title: `Failed to start payouts: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  };

  const choose = (value: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set("period", value);
      return next;
    });

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 id="page-title" className="text-2xl font-bold">
            Financials
          </h1>
          <p className="text-gray-600">Earnings, balances owed to artists and payouts.</p>
        </div>
        <DisabledReason reason={readOnly}>
          <Button onClick={openConfirmation} disabled={!ready || preview.isPending || start.isPending || activeRun !== null || !canWrite}>
            {preview.isPending ? "Preparing…" : "Process Payouts"}
          </Button>
        </DisabledReason>
      </div>

      <div role="group" aria-label="Period" className="flex flex-wrap gap-2">
        {PERIOD_OPTIONS.map((p) => (
          <Button key={p.value} variant={p.value === period ? "default" : "outline"} aria-pressed={p.value === period} onClick={() => choose(p.value)}>
            {p.label}
          </Button>
        ))}
      </div>

      <RunCard run={latestRun.data ?? null} />

      {overview.isError ? (
        <LoadErrorCard title="Error loading financials" message={overview.error.message} onRetry={() => void overview.refetch()} retrying={overview.isFetching} />
      ) : overview.data ? (
        <OverviewContent data={overview.data} />
      ) : (
        <Spinner className="py-12" label="Loading financials" />
      )}

      <BalancesCard enabled={ready} live={activeRun !== null} />
      <PayoutsCard enabled={ready} live={activeRun !== null} />

      <PayoutConfirmation run={previewRun} onCancel={() => setPreviewRun(null)} onConfirm={confirmRun} />
    </section>
  );
}

const CARDS: ReadonlyArray<{ key: keyof Omit<FinancialOverview["previous"], "from" | "to">; title: string; description: string }> = [
  { key: "grossSales", title: "Gross Sales", description: "Paid orders" },
  { key: "platformFees", title: "Platform Fees", description: "Fees on those orders" },
  { key: "subscriptionRevenue", title: "Subscription Revenue", description: "Artists' monthly fees" },
  { key: "refunds", title: "Refunds", description: "Orders refunded" },
  { key: "vendorEarnings", title: "Artist Earnings", description: "Sales minus fees" },
  { key: "paidOut", title: "Paid Out", description: "Payouts sent" },
  { key: "outstandingBalance", title: "Outstanding Balance", description: "Owed to artists at the end" },
];

function OverviewContent({ data }: { data: FinancialOverview }) {
  const label = PERIOD_OPTIONS.find((p) => p.value === data.period)?.label ?? "";
  const empty = data.series.every((d) => d.grossSales === 0 && d.platformFees === 0 && d.paidOut === 0);
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {CARDS.map((c) => {
          const change = changeText(data[c.key], data.previous[c.key]);
          return (
            <StatCard
              key={c.key}
              title={c.title}
              value={formatCurrency(data[c.key])}
              description={c.description}
              footer={
                change ? (
                  <p className={change.up ? "text-xs text-green-700" : "text-xs text-red-700"}>{change.text}</p>
                ) : (
                  <p className="text-xs text-gray-500">No previous period to compare</p>
                )
              }
            />
          );
        })}
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Sales, fees and payouts</CardTitle>
          <CardDescription>
            Per day, {label.toLowerCase()} ({formatDate(`${data.from}T12:00:00Z`)} – {formatDate(`${data.to}T12:00:00Z`)})
          </CardDescription>
        </CardHeader>
        <CardContent>
          {empty ? (
            <p className="text-sm text-gray-600">No sales or payouts in this period</p>
          ) : (
            <Suspense fallback={<Spinner className="h-72 w-full" label="Loading chart" />}>
              <FinancialsChart series={data.series} />
            </Suspense>
          )}
        </CardContent>
      </Card>
    </>
  );
}

/** The run in progress (a progress bar, cancel), or the last run's outcome. */
function RunCard({ run }: { run: PayoutRunItem | null }) {
  const cancel = useCancelPayoutRun();
  const { canWrite, reason: readOnly } = useWriteAccess();
  const [confirmCancel, setConfirmCancel] = useState(false);
  if (!run) return null;
  const active = isActiveRun(run);
  const settled = run.done + run.failed + run.unknown + run.canceled;
  const percent = run.vendors > 0 ? Math.round((settled / run.vendors) * 100) : active ? 0 : 100;
  return (
    <Card aria-label={active ? "Payout run in progress" : "Last payout run"} role="region">
      <CardHeader className="pb-2">
        <CardTitle>{active ? "Payout run in progress" : "Last payout run"}</CardTitle>
        <CardDescription>
          Started {formatDateTime(run.createdAt)}
          {run.createdBy ? ` by ${run.createdBy}` : ""}
          {run.finishedAt ? ` · ended ${formatDateTime(run.finishedAt)}` : ""}
          {!active ? ` · ${runStatusText(run.status)}` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div
          role="progressbar"
          aria-label="Payout progress"
          aria-valuemin={0}
          aria-valuemax={run.vendors}
          aria-valuenow={settled}
          className="h-3 w-full overflow-hidden rounded-full bg-gray-100"
        >
          <div className={active ? "h-full bg-blue-600 transition-all" : "h-full bg-green-600"} style={{ width: `${percent}%` }} />
        </div>
        <p className="text-sm text-gray-700" data-testid="run-progress">
          {run.done.toLocaleString("en-US")} of {artists(run.vendors)} paid ({formatCurrency(run.paidTotal)} of {formatCurrency(run.total)}) · {run.failed} failed
          {run.unknown ? ` · ${run.unknown} unknown` : ""}
          {run.canceled ? ` · ${run.canceled} canceled` : ""}
          {run.skipped ? ` · ${artists(run.skipped)} skipped (payout account not active)` : ""}
          {run.held ? ` · ${artists(run.held)} held back (an earlier payout still open)` : ""}
        </p>
        {!active && run.unknown > 0 && (
          <p role="status" className="text-sm text-yellow-800">
            {run.unknown === 1 ? "1 payout has" : `${run.unknown} payouts have`} an unknown outcome: Stripe never answered for certain, so the money stays in flight until
            Stripe confirms whether the transfer was made. They are checked with Stripe every few minutes, or use 'Check with Stripe' on the payout.
          </p>
        )}
        {run.error && <p className="text-sm text-red-700">{run.error}</p>}
        {active && (
          <div>
            <DisabledReason reason={readOnly}>
              <Button variant="outline" onClick={() => setConfirmCancel(true)} disabled={cancel.isPending || !canWrite}>
                Cancel Run
              </Button>
            </DisabledReason>
          </div>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title="Cancel Payout Run"
        description="Payouts not yet started will be canceled and stay owed to the artists; transfers already being made will finish."
        confirmLabel="Cancel Run"
        cancelLabel="Keep Running"
        confirmVariant="destructive"
        onConfirm={() =>
          cancel.mutate(run.id, {
            onSuccess: () => toast({ title: "Canceling the payout run…" }),
            onError: (error) => toast({ title: `Failed to cancel the run: ${apiErrorMessage(error)}`, variant: "destructive" }),
          })
        }
      />
    </Card>
  );
}

/** 'Pay N artists $X?', naming who is skipped; nothing to pay: says so and only closes. */
function PayoutConfirmation({ run, onCancel, onConfirm }: { run: PayoutRunItem | null; onCancel: () => void; onConfirm: () => void }) {
  const nothing = run !== null && run.vendors === 0;
  return (
    <AlertDialog open={run !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Process Payouts</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div className="grid gap-2">
              {run && !nothing && (
                <p>
                  Pay <strong>{artists(run.vendors)}</strong> a total of <strong>{formatCurrency(run.total)}</strong> through Stripe?
                </p>
              )}
              {run && nothing && <p>No artist with an active payout account is owed at least {formatCurrency(run.minimum)}.</p>}
              {run && <p>Artists owed at least {formatCurrency(run.minimum)} (the minimum payout amount) with an active payout account are paid.</p>}
              {run && run.skipped > 0 && (
                <p className="text-yellow-800">
                  {artists(run.skipped)} owed {formatCurrency(run.skippedTotal)} will be skipped: their payout account is not active.
                </p>
              )}
              {run && run.held > 0 && (
                <p className="text-yellow-800">
                  {artists(run.held)} will be left out: a payout to them is still being sent or its outcome is unknown, so paying them now could pay the same money twice.
                </p>
              )}
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel onClick={onCancel}>{nothing ? "Close" : "Cancel"}</AlertDialogCancel>
          {!nothing && run && <AlertDialogAction onClick={onConfirm}>{`Pay ${artists(run.vendors)}`}</AlertDialogAction>}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** Keyset pages: the cursors of the pages before, so 'Previous' goes back. */
function useCursorPages() {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  return {
    cursor: cursors[cursors.length - 1] ?? null,
    page: cursors.length,
    next: (cursor: string) => setCursors((c) => [...c, cursor]),
    previous: () => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)),
    reset: () => setCursors([null]),
  };
}

function exportCsv(kind: "payouts" | "balances", filters: Record<string, string | undefined>) {
  downloadExport(kind, filters).catch((error: unknown) => toast({ title: `Export failed: ${apiErrorMessage(error)}`, variant: "destructive" }));
}

function Pager({ label, page, hasNext, onPrevious, onNext }: { label: string; page: number; hasNext: boolean; onPrevious: () => void; onNext: () => void }) {
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2 pt-3 text-sm text-gray-600">
      <span>Page {page}</span>
      <div className="flex gap-2">
        <Button size="sm" variant="outline" disabled={page <= 1} onClick={onPrevious}>
          Previous
        </Button>
        <Button size="sm" variant="outline" disabled={!hasNext} onClick={onNext}>
          Next
        </Button>
      </div>
    </nav>
  );
}

function BalancesCard({ enabled, live }: { enabled: boolean; live: boolean }) {
  const [status, setStatus] = useState<AccountStatusName | "all">("all");
  const pages = useCursorPages();
  const q = useBalances(status, pages.cursor, enabled);
  const { refetch } = q;
  useEffect(() => {
    // While a run pays, balances move: read them again as it goes.
    if (!live) return;
    const timer = setInterval(() => void refetch(), 3000);
    return () => clearInterval(timer);
  }, [live, refetch]);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle>Balances owed</CardTitle>
          <CardDescription>{q.data ? `${artists(q.data.total)} owed ${formatCurrency(q.data.totalOwed)}, largest first` : "Artists owed money, largest first"}</CardDescription>
        </div>
        <div className="flex items-end gap-2">
          <div className="grid gap-1">
            <Label htmlFor="balances-status">Account status</Label>
            <Select
              value={status}
              onValueChange={(v) => {
                setStatus(v as AccountStatusName | "all");
                pages.reset();
              }}
            >
              <SelectTrigger id="balances-status" className="w-44">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">All accounts</SelectItem>
                {(Object.keys(ACCOUNT_STATUS_LABELS) as AccountStatusName[]).map((s) => (
                  <SelectItem key={s} value={s}>
                    {ACCOUNT_STATUS_LABELS[s]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <Button variant="outline" onClick={() => exportCsv("balances", { accountStatus: status === "all" ? undefined : status })}>
            Export Balances CSV
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {q.isError ? (
          <p role="alert" className="text-red-700">
            Failed to load balances: {q.error.message}
          </p>
        ) : !q.data ? (
          <Spinner className="py-8" label="Loading balances" />
        ) : q.data.balances.length === 0 ? (
          <p className="py-6 text-center text-gray-600">No artist is owed money.</p>
        ) : (
          <>
            <Table aria-label="Balances owed">
              <TableHeader>
                <TableRow>
                  <TableHead>Artist</TableHead>
                  <TableHead className="text-right">Balance</TableHead>
                  <TableHead>Payout account</TableHead>
                  <TableHead>Last payout</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {q.data.balances.map((b) => (
                  <TableRow key={b.vendorId}>
                    <TableCell>
                      <Link to={`/vendors/${b.vendorId}?tab=payouts`} className="text-blue-700 hover:underline">
                        {b.vendorName}
                      </Link>
                    </TableCell>
                    <TableCell className="text-right">{formatCurrency(b.balance)}</TableCell>
                    <TableCell>
                      <Badge variant={ACCOUNT_BADGE[b.accountStatus]}>{ACCOUNT_STATUS_LABELS[b.accountStatus]}</Badge>
                    </TableCell>
                    <TableCell>{b.lastPayoutAt ? formatDate(b.lastPayoutAt) : "Never"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Pager label="Balance pages" page={pages.page} hasNext={q.data.nextCursor !== null} onPrevious={pages.previous} onNext={() => q.data?.nextCursor && pages.next(q.data.nextCursor)} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function PayoutsCard({ enabled, live }: { enabled: boolean; live: boolean }) {
  const [status, setStatus] = useState<PayoutStatusName | "all">("all");
  const pages = useCursorPages();
  const q = usePayouts(status, pages.cursor, enabled);
  const retry = useRetryPayout();
  const check = useCheckPayout();
  const { canWrite, reason: readOnly } = useWriteAccess();
  const { refetch } = q;
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => void refetch(), 3000);
    return () => clearInterval(timer);
  }, [live, refetch]);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle>Payouts</CardTitle>
          <CardDescription>{q.data ? `${q.data.total.toLocaleString("en-US")} payouts, newest first` : "Newest first"}</CardDescription>
        </div>
        <div className="flex items-end gap-2">
          <div className="grid gap-1">
            <Label htmlFor="payouts-status">Status</Label>
            <Select
              value={status}
              onValueChange={(v) => {
                setStatus(v as PayoutStatusName | "all");
                pages.reset();
              }}
            >
              <SelectTrigger id="payouts-status" className="w-40">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">All statuses</SelectItem>
                {(Object.keys(PAYOUT_STATUS_LABELS) as PayoutStatusName[]).map((s) => (
                  <SelectItem key={s} value={s}>
                    {PAYOUT_STATUS_LABELS[s]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <Button variant="outline" onClick={() => exportCsv("payouts", { status: status === "all" ? undefined : status })}>
            Export Payouts CSV
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {q.isError ? (
          <p role="alert" className="text-red-700">
            Failed to load payouts: {q.error.message}
          </p>
        ) : !q.data ? (
          <Spinner className="py-8" label="Loading payouts" />
        ) : q.data.payouts.length === 0 ? (
          <p className="py-6 text-center text-gray-600">No payouts yet.</p>
        ) : (
          <>
            <Table aria-label="Payouts">
              <TableHeader>
                <TableRow>
                  <TableHead>Date</TableHead>
                  <TableHead>Artist</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Details</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {q.data.payouts.map((p) => (
                  <TableRow key={p.id}>
                    <TableCell>{formatDateTime(p.paidAt ?? p.createdAt)}</TableCell>
                    <TableCell>{p.vendorName}</TableCell>
                    <TableCell className="text-right">{formatCurrency(p.amount)}</TableCell>
                    <TableCell>
                      <Badge variant={PAYOUT_BADGE[p.status]} title={p.status === "unknown" ? UNKNOWN_EXPLANATION : undefined}>
                        {PAYOUT_STATUS_LABELS[p.status]}
                      </Badge>
                    </TableCell>
                    <TableCell className="max-w-md text-sm">
                      {p.status === "unknown" ? (
                        <div className="grid gap-1">
                          <span className="text-yellow-800">{UNKNOWN_EXPLANATION}</span>
                          {p.failureReason && <span className="text-xs text-gray-600">Last answer: {p.failureReason}</span>}
                          <span className="text-xs text-gray-600">{p.checkedAt ? `Last checked with Stripe ${formatDateTime(p.checkedAt)}` : "Not checked with Stripe yet"}</span>
                          <div>
                            <DisabledReason reason={readOnly}>
                              <Button
                                size="sm"
                                variant="outline"
                                disabled={check.isPending || !canWrite}
                                onClick={() =>
                                  check.mutate(p.id, {
                                    onSuccess: (result) =>
                                      toast({
                                        title:
                                          result.outcome === "paid"
                                            ? `Payout to ${p.vendorName} is paid`
                                            : result.outcome === "owed_again"
                                              ? `Payout to ${p.vendorName} was not sent: the amount is owed again`
                                              : `Still unknown: Stripe lists no transfer for ${p.vendorName} yet`,
                                        description: result.message,
                                        variant: result.outcome === "paid" ? "success" : "default",
                                      }),
                                    onError: (error) => toast({ title: `Failed to check with Stripe: ${apiErrorMessage(error)}`, variant: "destructive" }),
                                  })
                                }
                              >
                                Check with Stripe
                              </Button>
                            </DisabledReason>
                          </div>
                        </div>
                      ) : p.status === "failed" ? (
                        <div className="flex flex-wrap items-center gap-2">
                          <span className="text-red-700">{p.failureReason}</span>
                          <DisabledReason reason={readOnly}>
                          <Button
                            size="sm"
                            variant="outline"
                            disabled={retry.isPending || !canWrite}
                            onClick={() =>
                              retry.mutate(p.id, {
                                onSuccess: () => toast({ title: `Payout to ${p.vendorName} queued again`, variant: "success" }),
                                onError: (error) => toast({ title: `Failed to retry payout: ${apiErrorMessage(error)}`, variant: "destructive" }),
                              })
                            }
                          >
                            Retry
                          </Button>
                          </DisabledReason>
                        </div>
                      ) : (
                        <code className="text-xs text-gray-600">{p.stripeTransferId ?? ""}</code>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Pager label="Payout pages" page={pages.page} hasNext={q.data.nextCursor !== null} onPrevious={pages.previous} onNext={() => q.data?.nextCursor && pages.next(q.data.nextCursor)} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
