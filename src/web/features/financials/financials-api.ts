import { useEffect, useRef, useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type AccountStatusName,
  type FinancialPeriod,
  type PayoutRunItem,
  type PayoutStatusName,
  cancelPayoutRunEndpoint,
  checkPayoutEndpoint,
  createPayoutRunEndpoint,
  financialOverviewEndpoint,
  listBalancesEndpoint,
  listPayoutRunsEndpoint,
  listPayoutsEndpoint,
  retryPayoutEndpoint,
} from "@contract/financials";
import { useUrlParams } from "@web/components/list";
import { toast } from "@web/components/ui/toast";
import { apiErrorMessage, callApi, mutationOf } from "@web/lib/api-client";
import { countOf, formatCurrency } from "@web/lib/format";
import { byId, useApiMutation } from "@web/lib/use-api-mutation";
import { queryKeys } from "@web/lib/query-keys";
import { runEndToast } from "./financials-text";

export const FINANCIAL_PAGE_SIZE = 20;
/** How often the screen looks at a run in progress. */
export const RUN_POLL_MS = 1000;
/** How often the balances and payouts are read again while a run pays. */
export const LIVE_LIST_POLL_MS = 3000;

export const isActiveRun = (run: PayoutRunItem | null | undefined): boolean => run?.status === "queued" || run?.status === "running";

export function useFinancialOverview(period: FinancialPeriod, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.financials.overview(period),
    enabled,
    queryFn: ({ signal }) => callApi(financialOverviewEndpoint, { query: { period } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** When a list card reads: once the screen's load delay has passed (`enabled`), and every few seconds while a run pays (`live`: its rows move). */
interface ListOptions {
  enabled: boolean;
  live: boolean;
}

/** What every list page asks besides its filter ("all": none), and how its query keeps the page on screen and refreshes. */
const pageQuery = (cursor: string | null) => ({ limit: FINANCIAL_PAGE_SIZE, cursor: cursor ?? undefined });
const listQueryOptions = ({ enabled, live }: ListOptions) => ({ enabled, placeholderData: keepPreviousData, refetchInterval: live ? LIVE_LIST_POLL_MS : (false as const) });
const filterOf = <S extends string>(status: S | "all") => (status === "all" ? undefined : status);

export function useBalances(status: AccountStatusName | "all", cursor: string | null, options: ListOptions) {
  return useQuery({
    queryKey: queryKeys.financials.balances(status, cursor),
    queryFn: ({ signal }) => callApi(listBalancesEndpoint, { query: { accountStatus: filterOf(status), ...pageQuery(cursor) } }, { signal }),
    ...listQueryOptions(options),
  });
}

export function usePayouts(status: PayoutStatusName | "all", cursor: string | null, options: ListOptions) {
  return useQuery({
    queryKey: queryKeys.financials.payouts(status, cursor),
    queryFn: ({ signal }) => callApi(listPayoutsEndpoint, { query: { status: filterOf(status), ...pageQuery(cursor) } }, { signal }),
    ...listQueryOptions(options),
  });
}

/** The newest run, polled every second while it is queued or running (the progress bar). */
export function useLatestRun(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.financials.latestRun(),
    enabled,
    queryFn: async ({ signal }) => (await callApi(listPayoutRunsEndpoint, { query: { limit: 1 } }, { signal })).runs[0] ?? null,
    refetchInterval: (query) => (isActiveRun(query.state.data) ? RUN_POLL_MS : false),
  });
}

/** Counts who a run would pay (the confirmation); stores nothing. */
export function usePayoutPreview() {
  return useMutation({
    mutationFn: async () => (await callApi(createPayoutRunEndpoint, { body: { dryRun: true } })).run,
  });
}

/** Starts a run; the financials, dashboard and vendors areas refresh after. */
export function useStartPayoutRun() {
  return useMutation({
    ...mutationOf(createPayoutRunEndpoint),
    mutationFn: async () => (await callApi(createPayoutRunEndpoint, { body: {} })).run,
  });
}

export const useCancelPayoutRun = () => useApiMutation(cancelPayoutRunEndpoint, byId, (answer) => answer.run);
export const useRetryPayout = () => useApiMutation(retryPayoutEndpoint, byId, (answer) => answer.payout);
/** "Check with Stripe" on a payout whose outcome is unknown: what Stripe said, and the payout after. */
export const useCheckPayout = () => useApiMutation(checkPayoutEndpoint, byId);

/**
 * 'Process Payouts' from start to end (docs/product.md §15.4): the dry run behind the
 * confirmation (opened once on arrival with ?confirm=payouts, the dashboard's quick action), the
 * start, and when the run ends every figure read again and the outcome told.
 */
export function usePayoutRun(ready: boolean) {
  const [params, update] = useUrlParams();
  const latestRun = useLatestRun(ready);
  const activeRun = latestRun.data && isActiveRun(latestRun.data) ? latestRun.data : null;
  const queryClient = useQueryClient();
  const preview = usePayoutPreview();
  const start = useStartPayoutRun();
  const [previewRun, setPreviewRun] = useState<PayoutRunItem | null>(null);

  const openConfirmation = () =>
    preview.mutate(undefined, {
      onSuccess: (run) => setPreviewRun(run),
      onError: (error) => toast({ title: `Failed to prepare payouts: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });

  const wantsConfirmation = params.get("confirm") === "payouts";
  useEffect(() => {
    if (!ready || !wantsConfirmation) return;
    update({ confirm: null }, { resetPages: "none" });
    openConfirmation();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per arrival with the flag
  }, [ready, wantsConfirmation]);

  const seenActive = useRef<string | null>(null);
  useEffect(() => {
    const run = latestRun.data;
    if (!run) return;
    if (isActiveRun(run)) {
      seenActive.current = run.id;
    } else if (seenActive.current === run.id) {
      seenActive.current = null;
      void queryClient.invalidateQueries({ queryKey: queryKeys.financials.all });
      toast(runEndToast(run));
    }
  }, [latestRun.data, queryClient]);

  const confirm = () => {
    setPreviewRun(null);
    start.mutate(undefined, {
      onSuccess: (run) => {
        seenActive.current = run.id;
        queryClient.setQueryData(queryKeys.financials.latestRun(), run);
        toast({ title: "Payout run started", description: `Paying ${countOf(run.vendors, "artist")} ${formatCurrency(run.total)}.` });
      },
      onError: (error) => toast({ title: `Failed to start payouts: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  };

  return {
    latestRun: latestRun.data ?? null,
    activeRun,
    previewRun,
    preparing: preview.isPending,
    /** A run can be asked for: the screen is ready and no run is being prepared, started or paid. */
    canStart: ready && !preview.isPending && !start.isPending && activeRun === null,
    openConfirmation,
    confirm,
    dismiss: () => setPreviewRun(null),
  };
}
