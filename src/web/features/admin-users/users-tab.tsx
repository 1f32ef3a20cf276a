import { apiErrorMessage } from "@web/lib/api-client";
import { useContext, useState } from "react";
import type { AdminUser, StaffRole } from "@contract/admin-users";
import { CurrentUserContext, useWriteAccess } from "@web/app/current-user";
import { DataTable, ListState, Pager, useKeysetPages, useUrlParams, useUrlSearch } from "@web/components/list";
import { Input, inputClasses } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { countOf } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { useStaffList } from "./admin-users-api";
import { SessionsDialog } from "./sessions-dialog";
import { type PendingAction, StaffActionDialog, useStaffActions } from "./staff-actions";
import { staffColumns } from "./staff-columns";

const ROLE_FILTERS: Array<{ value: StaffRole | "all"; label: string }> = [
  { value: "all", label: "All roles" },
  { value: "admin", label: "Admins" },
  { value: "viewer", label: "Viewers" },
];

/** The Users tab (docs/product.md §14.5): everyone with panel access, and the confirmed actions on them; search, role and page live in the URL. */
export function UsersTab() {
  const [searchParams, update] = useUrlParams();
  const roleParam = searchParams.get("role");
  const role: StaffRole | "all" = roleParam === "admin" || roleParam === "viewer" ? roleParam : "all";
  const { input, setInput, search, settled } = useUrlSearch();
  const pages = useKeysetPages();
  const ready = useLoadDelay();
  const list = useStaffList({ search, role, cursor: settled ? pages.cursor : null }, ready);
  const me = useContext(CurrentUserContext);
  const { reason: readOnly } = useWriteAccess();
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [sessionsOf, setSessionsOf] = useState<AdminUser | null>(null);
  const actions = useStaffActions();
  const columns = staffColumns({ meId: me?.id, readOnly, busy: actions.busy, onAction: setPending, onSessions: setSessionsOf });

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="grid min-w-64 flex-1 gap-1">
          <Label htmlFor="staff-search">Search staff</Label>
          <Input id="staff-search" type="search" placeholder="E-mail or name" value={input} onChange={(e) => setInput(e.target.value)} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="staff-role">Role</Label>
          <select id="staff-role" className={inputClasses} value={role} onChange={(e) => update({ role: e.target.value === "all" ? null : e.target.value })}>
            {ROLE_FILTERS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      <ListState
        query={list}
        isEmpty={(data) => data.users.length === 0}
        loadingLabel="Loading staff"
        errorTitle="Error loading staff"
        errorMessage={apiErrorMessage}
        emptyText="No staff members match."
      >
        {(data) => (
          <div className="grid gap-3">
            <DataTable framed columns={columns} rows={data.users} rowKey={(u) => u.id} rowProps={(u) => ({ "data-testid": `staff-row-${u.email}` })} busy={list.isFetching} />
            <Pager label="Staff pages" summary={`${countOf(data.total, "staff member")} · page ${pages.page}`} {...pages.controls(list)} />
          </div>
        )}
      </ListState>

      <StaffActionDialog
        pending={pending}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          setPending(null);
          if (pending) actions.run(pending);
        }}
      />
      <SessionsDialog user={sessionsOf} onClose={() => setSessionsOf(null)} />
    </div>
  );
}
