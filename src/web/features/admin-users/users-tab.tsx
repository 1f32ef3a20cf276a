import { apiErrorMessage } from "@web/lib/api-client";
import { useContext, useState } from "react";
import { type AdminUser, STAFF_ROLES, STAFF_SORTS, type StaffRole } from "@contract/admin-users";
import { CurrentUserContext } from "@web/app/current-user";
import { FilterBar, ListTable, Pager, SearchFilter, SelectFilter, serverSort, useKeysetPages, useSortParam, useUrlParams, useUrlSearch } from "@web/components/list";
import { countOf } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { useStaffList } from "./admin-users-api";
import { SessionsDialog } from "./sessions-dialog";
import { type PendingAction, StaffActionDialog, useStaffActions } from "./staff-actions";
import { staffColumns } from "./staff-columns";

const ROLE_FILTERS: Array<{ value: StaffRole | "all"; label: string }> = [
  { value: "all", label: "All roles" },
  { value: "admin", label: "Admins" },
  { value: "finance", label: "Finance" },
  { value: "support", label: "Support" },
  { value: "viewer", label: "Viewers" },
];

/** The Users tab (docs/product.md §14.5): everyone with panel access, and the confirmed actions on them; search, role, order and page live in the URL. */
export function UsersTab() {
  const [searchParams] = useUrlParams();
  const roleParam = searchParams.get("role");
  const role: StaffRole | "all" = STAFF_ROLES.find((r) => r === roleParam) ?? "all";
  const search = useUrlSearch();
  const pages = useKeysetPages();
  const ready = useLoadDelay();
  // The headers sort on the server (?sort=name, ?sort=-lastSignIn); without one, by e-mail.
  const sortState = useSortParam();
  const sort = serverSort(sortState, STAFF_SORTS);
  const list = useStaffList({ search: search.search, role, sort, cursor: search.settled ? pages.cursor : null }, ready);
  const me = useContext(CurrentUserContext);
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [sessionsOf, setSessionsOf] = useState<AdminUser | null>(null);
  const actions = useStaffActions();
  const columns = staffColumns({ meId: me?.id, busy: actions.busy, onAction: setPending, onSessions: setSessionsOf });

  return (
    <div className="grid gap-4">
      <FilterBar>
        <SearchFilter id="staff-search" label="Search staff" placeholder="E-mail or name" search={search} />
        <SelectFilter id="staff-role" label="Role" param="role" value={role} options={ROLE_FILTERS} />
      </FilterBar>

      <ListTable
        query={list}
        rowsOf={(data) => data.users}
        loadingLabel="Loading staff"
        errorTitle="Error loading staff"
        errorMessage={apiErrorMessage}
        emptyText="No staff members match."
        footer={(data) => <Pager label="Staff pages" summary={`${countOf(data.total, "staff member")} · page ${pages.page}`} {...pages.controls(list)} />}
        framed
        label="Staff"
        columns={columns}
        rowKey={(u) => u.id}
        rowProps={(u) => ({ "data-testid": `staff-row-${u.email}` })}
        sort={sortState}
      />

      <StaffActionDialog
        pending={pending}
        onCancel={() => setPending(null)}
        onConfirm={(action) => {
          setPending(null);
          actions.run(action);
        }}
      />
      <SessionsDialog user={sessionsOf} onClose={() => setSessionsOf(null)} />
    </div>
  );
}
