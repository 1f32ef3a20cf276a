import { apiErrorMessage } from "@web/lib/api-client";
import { useContext, useState } from "react";
import { useSearchParams } from "react-router";
import type { AdminUser, StaffRole } from "@contract/admin-users";
import { CurrentUserContext, useWriteAccess } from "@web/app/current-user";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { DisabledReason } from "@web/components/ui/disabled-reason";
import { Input, inputClasses } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { LoadErrorCard } from "@web/components/ui/load-error-card";
import { Spinner } from "@web/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { toast } from "@web/components/ui/toast";
import { formatDateTime } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { useChangeRole, useRemoveAccess, useSignOutEverywhere, useStaffList, useUserSessions } from "./admin-users-api";
import { useDebouncedValue } from "@web/lib/use-debounced-value";

const ROLE_FILTERS: Array<{ value: StaffRole | "all"; label: string }> = [
  { value: "all", label: "All roles" },
  { value: "admin", label: "Admins" },
  { value: "viewer", label: "Viewers" },
];

export const ROLE_LABELS: Record<StaffRole, string> = { admin: "Admin", viewer: "Viewer" };

type Pending = { kind: "role"; user: AdminUser; role: StaffRole } | { kind: "remove"; user: AdminUser } | { kind: "sign-out"; user: AdminUser };

/** Why an action on `user` is not offered to the signed-in user, or undefined when it is. */
function refusal(user: AdminUser, meId: string | undefined, readOnly: string | undefined): string | undefined {
  if (readOnly) return readOnly;
  if (user.id === meId) return "You cannot change your own access: ask another administrator";
  if (user.access === "domain") return "An admin by company e-mail domain: a role cannot change that";
  return undefined;
}

/** The Users tab (docs/product.md §14.5): everyone with panel access, and the confirmed actions on them. */
export function UsersTab() {
  const [searchParams, setSearchParams] = useSearchParams();
  const roleParam = searchParams.get("role");
  const role: StaffRole | "all" = roleParam === "admin" || roleParam === "viewer" ? roleParam : "all";
  const [searchInput, setSearchInput] = useState(searchParams.get("search") ?? "");
  const search = useDebouncedValue(searchInput.trim(), 300);
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const ready = useLoadDelay();
  const list = useStaffList({ search, role, cursor: cursors.at(-1) ?? null }, ready);
  const me = useContext(CurrentUserContext);
  const { reason: readOnly } = useWriteAccess();
  const changeRole = useChangeRole();
  const removeAccess = useRemoveAccess();
  const signOut = useSignOutEverywhere();
  const [pending, setPending] = useState<Pending | null>(null);
  const [sessionsOf, setSessionsOf] = useState<AdminUser | null>(null);

  const setRole = (value: string) => {
    setCursors([null]);
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === "all") next.delete("role");
        else next.set("role", value);
        return next;
      },
      { replace: true },
    );
  };

  const confirm = () => {
    const action = pending;
    setPending(null);
    if (!action) return;
    const { user } = action;
    if (action.kind === "role") {
      changeRole.mutate(
        { id: user.id, role: action.role },
        {
          onSuccess: () => toast({ title: `${user.email} is now ${action.role === "admin" ? "an admin" : "a viewer"}`, variant: "success" }),
          onError: (error) => toast({ title: `Failed to change the role: ${apiErrorMessage(error)}`, variant: "destructive" }),
        },
      );
    } else if (action.kind === "remove") {
      removeAccess.mutate(user.id, {
        onSuccess: (result) => toast({ title: `Access removed for ${user.email}`, description: `${result.sessionsRevoked} open session${result.sessionsRevoked === 1 ? "" : "s"} signed out.`, variant: "success" }),
        onError: (error) => toast({ title: `Failed to remove access: ${apiErrorMessage(error)}`, variant: "destructive" }),
      });
    } else {
      signOut.mutate(user.id, {
        onSuccess: (result) => toast({ title: `Signed ${user.email} out everywhere`, description: `${result.revoked} session${result.revoked === 1 ? "" : "s"} ended.`, variant: "success" }),
        onError: (error) => toast({ title: `Failed to sign out: ${apiErrorMessage(error)}`, variant: "destructive" }),
      });
    }
  };

  const data = list.data;
  const busy = changeRole.isPending || removeAccess.isPending || signOut.isPending;

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="grid min-w-64 flex-1 gap-1">
          <Label htmlFor="staff-search">Search staff</Label>
          <Input
            id="staff-search"
            type="search"
            placeholder="E-mail or name"
            value={searchInput}
            onChange={(e) => {
              setSearchInput(e.target.value);
              setCursors([null]);
            }}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="staff-role">Role</Label>
          <select id="staff-role" className={inputClasses} value={role} onChange={(e) => setRole(e.target.value)}>
            {ROLE_FILTERS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      {list.isPending ? (
        <Spinner className="py-12" label="Loading staff" />
      ) : list.isError ? (
        <LoadErrorCard title="Error loading staff" message={apiErrorMessage(list.error)} onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : data && data.users.length === 0 ? (
        <Card>
          <CardContent className="py-10 text-center text-gray-600">No staff members match.</CardContent>
        </Card>
      ) : (
        data && (
          <div className="grid gap-3">
            <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white" aria-busy={list.isFetching}>
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>User</TableHead>
                    <TableHead>Role</TableHead>
                    <TableHead>Access</TableHead>
                    <TableHead>Last sign-in</TableHead>
                    <TableHead>Sessions</TableHead>
                    <TableHead>
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.users.map((u) => {
                    const refused = refusal(u, me?.id, readOnly);
                    const otherRole: StaffRole = u.role === "admin" ? "viewer" : "admin";
                    return (
                      <TableRow key={u.id} data-testid={`staff-row-${u.email}`}>
                        <TableCell>
                          <div className="font-medium">
                            {u.name ?? u.email}
                            {u.id === me?.id && <span className="ml-1 text-gray-500">(you)</span>}
                          </div>
                          {u.name && <div className="text-xs text-gray-600">{u.email}</div>}
                        </TableCell>
                        <TableCell>
                          <Badge variant={u.role === "admin" ? "default" : "info"}>{ROLE_LABELS[u.role]}</Badge>
                        </TableCell>
                        <TableCell>{u.access === "domain" ? "By company domain" : "By role"}</TableCell>
                        <TableCell>{u.lastSignInAt ? formatDateTime(u.lastSignInAt) : "Never"}</TableCell>
                        <TableCell>
                          <Button variant="link" size="sm" className="px-0" onClick={() => setSessionsOf(u)} aria-label={`Open sessions of ${u.email}: ${u.activeSessions}`}>
                            {u.activeSessions}
                          </Button>
                        </TableCell>
                        <TableCell>
                          <div className="flex flex-wrap justify-end gap-2">
                            <DisabledReason reason={refused}>
                              <Button size="sm" variant="outline" disabled={refused !== undefined || busy} onClick={() => setPending({ kind: "role", user: u, role: otherRole })} aria-label={`Make ${u.email} ${otherRole === "admin" ? "an admin" : "a viewer"}`}>
                                {otherRole === "admin" ? "Make admin" : "Make viewer"}
                              </Button>
                            </DisabledReason>
                            <DisabledReason reason={refused}>
                              <Button size="sm" variant="destructive" disabled={refused !== undefined || busy} onClick={() => setPending({ kind: "remove", user: u })} aria-label={`Remove access of ${u.email}`}>
                                Remove access
                              </Button>
                            </DisabledReason>
                            <DisabledReason reason={readOnly}>
                              <Button size="sm" variant="outline" disabled={readOnly !== undefined || busy || u.activeSessions === 0} onClick={() => setPending({ kind: "sign-out", user: u })} aria-label={`Sign ${u.email} out everywhere`}>
                                Sign out everywhere
                              </Button>
                            </DisabledReason>
                          </div>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </div>
            <nav aria-label="Staff pages" className="flex items-center justify-between gap-2 text-sm text-gray-600">
              <span>
                {data.total.toLocaleString("en-US")} staff member{data.total === 1 ? "" : "s"} · page {cursors.length}
              </span>
              <div className="flex gap-2">
                <Button size="sm" variant="outline" disabled={cursors.length <= 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
                  Previous
                </Button>
                <Button size="sm" variant="outline" disabled={!data.nextCursor || list.isPlaceholderData} onClick={() => setCursors((c) => [...c, data.nextCursor])}>
                  Next
                </Button>
              </div>
            </nav>
          </div>
        )
      )}

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending?.kind === "role" ? "Change role" : pending?.kind === "remove" ? "Remove access" : "Sign out everywhere"}
        confirmLabel={pending?.kind === "role" ? (pending.role === "admin" ? "Make admin" : "Make viewer") : pending?.kind === "remove" ? "Remove access" : "Sign out everywhere"}
        confirmVariant={pending?.kind === "remove" ? "destructive" : "default"}
        onConfirm={confirm}
        description={
          pending?.kind === "role"
            ? pending.role === "admin"
              ? `Make ${pending.user.email} an admin: they can change everything in the panel, including who has access.`
              : `Make ${pending.user.email} a viewer: they keep seeing every screen but can no longer change anything.`
            : pending?.kind === "remove"
              ? `${pending.user.email} loses access to the admin panel at once: their role goes back to user and every open session is signed out. Their account is kept.`
              : pending
                ? `Every session of ${pending.user.email} ends now (${pending.user.activeSessions} open). They can sign in again with their password.`
                : ""
        }
      />
      <SessionsDialog user={sessionsOf} onClose={() => setSessionsOf(null)} />
    </div>
  );
}

function SessionsDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const sessions = useUserSessions(user?.id ?? null);
  return (
    <Dialog open={user !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Open sessions</DialogTitle>
          <DialogDescription>{user?.email}</DialogDescription>
        </DialogHeader>
        {sessions.isPending ? (
          <Spinner label="Loading sessions" />
        ) : sessions.isError ? (
          <p role="alert" className="text-sm text-red-700">
            Failed to load sessions: {apiErrorMessage(sessions.error)}
          </p>
        ) : sessions.data.sessions.length === 0 ? (
          <p className="text-sm text-gray-600">No open sessions.</p>
        ) : (
          <ul className="grid gap-2 text-sm">
            {sessions.data.sessions.map((s) => (
              <li key={s.id} className="flex justify-between gap-4 rounded border border-gray-200 px-3 py-2">
                <span>
                  Signed in {formatDateTime(s.createdAt)}
                  {s.current && <span className="ml-2 font-medium">(this session)</span>}
                </span>
                <span className="text-gray-600">until {formatDateTime(s.expiresAt)}</span>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
