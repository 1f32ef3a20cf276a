import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
// Types only: zod stays out of this screen's JS.
import type { ArchiveOneResponse, ErrorLevel, ErrorListResponse, ErrorMessageResponse } from "@contract/error-logs";
import { apiDelete, apiGet, apiPost } from "@web/lib/api-client";

export const ERROR_PAGE_SIZE = 20;

export interface ErrorListParams {
  archived: boolean;
  level: ErrorLevel | null;
  /** Keyset position from the previous page's nextCursor; null for the first page. */
  cursor: string | null;
}

/** Query keys of the errors area, so each mutation invalidates exactly what it changes. */
export const errorKeys = {
  all: ["errors"] as const,
  lists: () => [...errorKeys.all, "list"] as const,
  list: (params: ErrorListParams) => [...errorKeys.lists(), params] as const,
};

export function errorListPath(params: ErrorListParams): string {
  const q = new URLSearchParams({ page: "1", limit: String(ERROR_PAGE_SIZE), archived: String(params.archived) });
  if (params.level) q.set("level", params.level);
  if (params.cursor) q.set("cursor", params.cursor);
  return `/api/admin/errors?${q.toString()}`;
}

export function useErrorList(params: ErrorListParams, enabled = true) {
  return useQuery({
    queryKey: errorKeys.list(params),
    enabled,
    queryFn: ({ signal }) => apiGet<ErrorListResponse>(errorListPath(params), { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Every mutation here moves entries between the views or removes them: all lists and counts change. */
function useInvalidateLists() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: errorKeys.lists() });
}

export function useArchiveError() {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: (id: string) => apiPost<ArchiveOneResponse>(`/api/admin/errors/${encodeURIComponent(id)}/archive`),
    onSuccess: invalidate,
  });
}

export function useArchiveAll() {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: (level: ErrorLevel | null) => apiPost<ErrorMessageResponse>("/api/admin/errors/archive-all", level ? { level } : {}),
    onSuccess: invalidate,
  });
}

export function useCleanupArchived() {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: () => apiDelete<ErrorMessageResponse>("/api/admin/errors/cleanup-archived"),
    onSuccess: invalidate,
  });
}
