import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import {
  type ErrorLevel,
  type ErrorLogSort,
  archiveAllErrorLogsEndpoint,
  archiveErrorLogEndpoint,
  archiveSelectedErrorLogsEndpoint,
  cleanupArchivedErrorLogsEndpoint,
  listErrorLogsEndpoint,
} from "@contract/error-logs";
import { callApi, mutationOf } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";

export const ERROR_PAGE_SIZE = 20;

export interface ErrorListParams {
  archived: boolean;
  level: ErrorLevel | null;
  /** Keyset position from the previous page's nextCursor; null for the first page. */
  cursor: string | null;
  /** Newest first (the default) or oldest first. */
  sort?: ErrorLogSort;
}

/** The list call's query: always the first page number (the cursor moves on), level and cursor only when set. */
export function errorListQuery(params: ErrorListParams) {
  return {
    page: 1,
    limit: ERROR_PAGE_SIZE,
    archived: params.archived,
    level: params.level ?? undefined,
    cursor: params.cursor ?? undefined,
    sort: params.sort === "oldest" ? ("oldest" as const) : undefined,
  };
}

export function useErrorList(params: ErrorListParams, enabled = true) {
  return useQuery({
    queryKey: queryKeys["error-logs"].list(params),
    enabled,
    queryFn: ({ signal }) => callApi(listErrorLogsEndpoint, { query: errorListQuery(params) }, { signal }),
    placeholderData: keepPreviousData,
  });
}

// Each mutation below moves entries between the views or removes them; its definition names the
// areas that changes (error-logs, dashboard), which the query client refreshes after success.

export function useArchiveError() {
  return useMutation({
    ...mutationOf(archiveErrorLogEndpoint),
    mutationFn: (id: string) => callApi(archiveErrorLogEndpoint, { params: { id } }),
  });
}

/** Archives the entries selected on screen, all or none. */
export function useArchiveSelected() {
  return useMutation({
    ...mutationOf(archiveSelectedErrorLogsEndpoint),
    mutationFn: (ids: string[]) => callApi(archiveSelectedErrorLogsEndpoint, { body: { ids } }),
  });
}

export function useArchiveAll() {
  return useMutation({
    ...mutationOf(archiveAllErrorLogsEndpoint),
    mutationFn: (level: ErrorLevel | null) => callApi(archiveAllErrorLogsEndpoint, { body: level ? { level } : {} }),
  });
}

export function useCleanupArchived() {
  return useMutation({
    ...mutationOf(cleanupArchivedErrorLogsEndpoint),
    mutationFn: () => callApi(cleanupArchivedErrorLogsEndpoint, {}),
  });
}
