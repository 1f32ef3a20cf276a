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

export const isActiveRun = (run: PayoutRunItem | null | undefined): boolean => run?.status === "queued" || run?.status === "running";

export function useFinancialOverview(period: FinancialPeriod, enabled: boolean) {
  return useQuery({
    queryKey: financialKeys.overview(period),
    enabled,
    queryFn: ({ signal }) => callApi(financialOverviewEndpoint, { query: { period } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useBalances(status: AccountStatusName | "all", cursor: string | null, enabled: boolean) {
  return useQuery({
    queryKey: financialKeys.balances(status, cursor),
    enabled,
    queryFn: ({ signal }) =>
      callApi(listBalancesEndpoint, { query: { accountStatus: status === "all" ? undefined : status, limit: FINANCIAL_PAGE_SIZE, cursor: cursor ?? undefined } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePayouts(status: PayoutStatusName | "all", cursor: string | null, enabled: boolean) {
  return useQuery({
    queryKey: financialKeys.payouts(status, cursor),
    enabled,
    queryFn: ({ signal }) =>
      callApi(listPayoutsEndpoint, { query: { status: status === "all" ? undefined : status, limit: FINANCIAL_PAGE_SIZE, cursor: cursor ?? undefined } }, { signal }),
    placeholderData: keepPreviousData,
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

export function useCancelPayoutRun() {
  return useMutation({
    ...mutationOf(cancelPayoutRunEndpoint),
    mutationFn: async (id: string) => (await callApi(cancelPayoutRunEndpoint, { params: { id } })).run,
  });
}

export function useRetryPayout() {
  return useMutation({
    ...mutationOf(retryPayoutEndpoint),
    mutationFn: async (id: string) => (await callApi(retryPayoutEndpoint, { params: { id } })).payout,
  });
}

/** "Check with Stripe" on a payout whose outcome is unknown: what Stripe said, and the payout after. */
export function useCheckPayout() {
  return useMutation({
    ...mutationOf(checkPayoutEndpoint),
    mutationFn: (id: string) => callApi(checkPayoutEndpoint, { params: { id } }),
  });
}
