import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  type AnnouncementItem,
  type AnnouncementRequest,
  type RecipientStatus,
  cancelAnnouncementEndpoint,
  getAnnouncementEndpoint,
  listAnnouncementsEndpoint,
  listRecipientsEndpoint,
  previewAnnouncementEndpoint,
  retryFailedEndpoint,
  sendAnnouncementEndpoint,
  takeDownAnnouncementEndpoint,
} from "@contract/communications";
import { listAdminVendorsEndpoint } from "@contract/vendors";
import { callApi } from "@web/lib/api-client";
import { byId, useApiMutation } from "@web/lib/use-api-mutation";
import { queryKeys } from "@web/lib/query-keys";

export const COMMUNICATIONS_PAGE_SIZE = 20;
/** How often a screen looks at an announcement whose mails are going out. */
export const PROGRESS_POLL_MS = 1000;
/** How long the composer waits after the last keystroke before asking for a preview. */
export const PREVIEW_DELAY_MS = 300;

export const isInProgress = (a: AnnouncementItem | null | undefined): boolean => a?.status === "queueing" || a?.status === "sending";

export function useAnnouncementHistory(cursor: string | null) {
  return useQuery({
    queryKey: queryKeys.communications.history(cursor),
    queryFn: ({ signal }) => callApi(listAnnouncementsEndpoint, { query: { limit: COMMUNICATIONS_PAGE_SIZE, cursor: cursor ?? undefined } }, { signal }),
    placeholderData: keepPreviousData,
    // While any announcement on the page is sending, its counts move.
    refetchInterval: (query) => (query.state.data?.announcements.some(isInProgress) ? PROGRESS_POLL_MS * 2 : false),
  });
}

/** One announcement, read every second while its mails go out (the progress). */
export function useAnnouncement(id: string | null) {
  return useQuery({
    queryKey: queryKeys.communications.one(id ?? "none"),
    enabled: id !== null,
    queryFn: async ({ signal }) => (await callApi(getAnnouncementEndpoint, { params: { id: id! } }, { signal })).announcement,
    refetchInterval: (query) => (isInProgress(query.state.data) ? PROGRESS_POLL_MS : false),
  });
}

export function useRecipients(id: string, status: RecipientStatus | "all", cursor: string | null, live: boolean) {
  return useQuery({
    queryKey: queryKeys.communications.recipients(id, status, cursor),
    queryFn: ({ signal }) =>
      callApi(listRecipientsEndpoint, { params: { id }, query: { status: status === "all" ? undefined : status, limit: COMMUNICATIONS_PAGE_SIZE, cursor: cursor ?? undefined } }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: live ? PROGRESS_POLL_MS * 2 : false,
  });
}

/** The mail the composer would send and how many artists it reaches; null body: nothing to preview yet. */
export function usePreview(body: AnnouncementRequest | null) {
  return useQuery({
    queryKey: queryKeys.communications.preview(body),
    enabled: body !== null,
    queryFn: ({ signal }) => callApi(previewAnnouncementEndpoint, { body: body! }, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Artists matching a search, for choosing the recipients by name. */
export function useArtistSearch(search: string) {
  return useQuery({
    queryKey: queryKeys.vendors.announcementPicker(search),
    enabled: search.trim().length > 0,
    queryFn: ({ signal }) => callApi(listAdminVendorsEndpoint, { query: { search: search.trim(), limit: 8 } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Each answers the announcement after the change. */
const announcementOf = (answer: { announcement: AnnouncementItem }) => answer.announcement;
export const useSendAnnouncement = () => useApiMutation(sendAnnouncementEndpoint, (body: AnnouncementRequest) => ({ body }), announcementOf);
export const useRetryFailed = () => useApiMutation(retryFailedEndpoint, byId, announcementOf);
export const useCancelAnnouncement = () => useApiMutation(cancelAnnouncementEndpoint, byId, announcementOf);
export const useTakeDown = () => useApiMutation(takeDownAnnouncementEndpoint, byId, announcementOf);
