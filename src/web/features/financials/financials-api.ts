import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import {
  type AccountStatusName,
  type FinancialPeriod,
  type PayoutRunItem,
  type PayoutStatusName,
  cancelPayoutRunEndpoint,
  checkPayoutEndpoint,
  createPayoutRunEndpoint,
  financialOverviewEndpoint,
  getPayoutRunEndpoint,
  listBalancesEndpoint,
  listPayoutRunsEndpoint,
  listPayoutsEndpoint,
  retryPayoutEndpoint,
} from "@contract/financials";
import { callApi, mutationOf } from "@web/lib/api-client";
import { byId, useApiMutation } from "@web/lib/use-api-mutation";

/** Query keys of the financial area (every key starts with it: a payout run refreshes them all). */
export const financialKeys = {
  all: ["financial"] as const,
  overview: (period: FinancialPeriod) => [...financialKeys.all, "overview", period] as const,
  balances: (status: AccountStatusName | "all", cursor: string | null) => [...financialKeys.all, "balances", status, cursor] as const,
  payouts: (status: PayoutStatusName | "all", cursor: string | null) => [...financialKeys.all, "payouts", status, cursor] as const,
  latestRun: () => [...financialKeys.all, "runs", "latest"] as const,
  run: (id: string) => [...financialKeys.all, "runs", id] as const,
};

export const FINANCIAL_PAGE_SIZE = 20;
/** How often the screen looks at a run in progress. */
export const RUN_POLL_MS = 1000;
/** How often the balances and payouts are read again while a run pays. */
export const LIVE_LIST_POLL_MS = 3000;

export const isActiveRun = (run: PayoutRunItem | null | undefined): boolean => run?.status === "queued" || run?.status === "running";

export function useFinancialOverview(period: FinancialPeriod, enabled: boolean) {
  return useQuery({
    queryKey: financialKeys.overview(period),
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
    queryKey: financialKeys.balances(status, cursor),
    queryFn: ({ signal }) => callApi(listBalancesEndpoint, { query: { accountStatus: filterOf(status), ...pageQuery(cursor) } }, { signal }),
    ...listQueryOptions(options),
  });
}

export function usePayouts(status: PayoutStatusName | "all", cursor: string | null, options: ListOptions) {
  return useQuery({
    queryKey: financialKeys.payouts(status, cursor),
    queryFn: ({ signal }) => callApi(listPayoutsEndpoint, { query: { status: filterOf(status), ...pageQuery(cursor) } }, { signal }),
    ...listQueryOptions(options),
  });
}

/** The newest run, polled every second while it is queued or running (the progress bar). */
export function useLatestRun(enabled: boolean) {
  return useQuery({
    queryKey: financialKeys.latestRun(),
    enabled,
    queryFn: async ({ signal }) => (await callApi(listPayoutRunsEndpoint, { query: { limit: 1 } }, { signal })).runs[0] ?? null,
    refetchInterval: (query) => (isActiveRun(query.state.data) ? RUN_POLL_MS : false),
  });
}

export function usePayoutRun(id: string | null) {
  return useQuery({
    queryKey: financialKeys.run(id ?? "none"),
    enabled: id !== null,
    queryFn: async ({ signal }) => (await callApi(getPayoutRunEndpoint, { params: { id: id! } }, { signal })).run,
    refetchInterval: (query) => (isActiveRun(query.state.data) ? RUN_POLL_MS : false),
  });
}

/** Counts who a run would pay (the confirmation); stores nothing. */
export function usePayoutPreview() {
  return useMutation({
    mutationFn: async () => (await callApi(createPayoutRunEndpoint, { body: { dryRun: true } })).run,
  });
}

/** Starts a run; the financial, dashboard and vendors areas refresh after. */
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
