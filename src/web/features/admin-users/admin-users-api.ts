import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import {
  type StaffRole,
  type StaffSort,
  changeUserRoleEndpoint,
  inviteAdminUserEndpoint,
  listAdminUsersEndpoint,
  listInvitationsEndpoint,
  listUserSessionsEndpoint,
  removeUserAccessEndpoint,
  resendInvitationEndpoint,
  revokeInvitationEndpoint,
  revokeUserSessionsEndpoint,
} from "@contract/admin-users";
import { listAuditLogEndpoint } from "@contract/audit-log";
import { resetUserTwoStepEndpoint } from "@contract/auth";
import { callApi, mutationOf } from "@web/lib/api-client";
import { queryKeys } from "@web/lib/query-keys";

export const STAFF_PAGE_SIZE = 25;
export const AUDIT_LOG_PAGE_SIZE = 25;

export interface StaffListParams {
  search: string;
  role: StaffRole | "all";
  /** Keyset position from the previous page's nextCursor; null for the first page. */
  cursor: string | null;
  /** A server order other than by e-mail (`name`, `-lastSignIn`, …); null: by e-mail. */
  sort?: StaffSort | null;
}

/** The Activity tab's filters, as the URL and the CSV export carry them ("" = not set). */
export interface AuditLogFilterValues {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  from: string;
  to: string;
}

/** The filters the API takes: only the ones set. */
export function auditLogQuery(filters: AuditLogFilterValues): Partial<AuditLogFilterValues> {
  return Object.fromEntries(
    Object.entries(filters)
      .filter(([, v]) => v.trim() !== "")
      .map(([k, v]) => [k, v.trim()]),
  );
}

export function useStaffList(params: StaffListParams, enabled = true) {
  const search = params.search.trim();
  return useQuery({
    queryKey: queryKeys["admin-users"].list(params),
    enabled,
    queryFn: ({ signal }) =>
      callApi(
        listAdminUsersEndpoint,
        {
          query: {
            limit: STAFF_PAGE_SIZE,
            search: search === "" ? undefined : search,
            role: params.role === "all" ? undefined : params.role,
            sort: params.sort ?? undefined,
            cursor: params.cursor ?? undefined,
          },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useInvitations(enabled = true) {
  return useQuery({ queryKey: queryKeys["admin-users"].invitations(), enabled, queryFn: ({ signal }) => callApi(listInvitationsEndpoint, {}, { signal }) });
}

export function useUserSessions(id: string | null) {
  return useQuery({
    queryKey: queryKeys["admin-users"].sessions(id ?? ""),
    enabled: id !== null,
    queryFn: ({ signal }) => callApi(listUserSessionsEndpoint, { params: { id: id! } }, { signal }),
    staleTime: 0,
  });
}

export function useAuditLog(filters: AuditLogFilterValues, cursor: string | null, enabled = true) {
  return useQuery({
    queryKey: queryKeys["audit-log"].page(filters, cursor),
    enabled,
    queryFn: ({ signal }) => callApi(listAuditLogEndpoint, { query: { ...auditLogQuery(filters), limit: AUDIT_LOG_PAGE_SIZE, cursor: cursor ?? undefined } }, { signal }),
    placeholderData: keepPreviousData,
    // Every screen's actions write here: opening the tab always shows the latest.
    staleTime: 0,
  });
}

// Each mutation's definition names the areas it changes (admin-users, audit-log), refreshed after success.

export function useInvite() {
  return useMutation({ ...mutationOf(inviteAdminUserEndpoint), mutationFn: (body: { email: string; role: StaffRole }) => callApi(inviteAdminUserEndpoint, { body }) });
}

export function useResendInvitation() {
  return useMutation({ ...mutationOf(resendInvitationEndpoint), mutationFn: (id: string) => callApi(resendInvitationEndpoint, { params: { id } }) });
}

export function useRevokeInvitation() {
  return useMutation({ ...mutationOf(revokeInvitationEndpoint), mutationFn: (id: string) => callApi(revokeInvitationEndpoint, { params: { id } }) });
}

export function useChangeRole() {
  return useMutation({ ...mutationOf(changeUserRoleEndpoint), mutationFn: ({ id, role }: { id: string; role: StaffRole }) => callApi(changeUserRoleEndpoint, { params: { id }, body: { role } }) });
}

export function useRemoveAccess() {
  return useMutation({ ...mutationOf(removeUserAccessEndpoint), mutationFn: (id: string) => callApi(removeUserAccessEndpoint, { params: { id } }) });
}

export function useSignOutEverywhere() {
  return useMutation({ ...mutationOf(revokeUserSessionsEndpoint), mutationFn: (id: string) => callApi(revokeUserSessionsEndpoint, { params: { id } }) });
}

export function useResetTwoStep() {
  return useMutation({ ...mutationOf(resetUserTwoStepEndpoint), mutationFn: (id: string) => callApi(resetUserTwoStepEndpoint, { params: { id } }) });
}
